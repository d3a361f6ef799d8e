// The tags of the YAML 1.2 core schema, the one data documents are read with; `!` is the
// non-specific tag (a plain string).
const coreTypes = ['str', 'int', 'float', 'bool', 'null', 'map', 'seq']
const coreTags = new Set(['!', ...coreTypes.flatMap((type) => [`!!${type}`, `!<tag:yaml.org,2002:${type}>`])])

/** Whether a tag, as written, is one of the core schema's (`!!str`, `!<tag:yaml.org,2002:str>`, `!`). */
export const isCoreTag = (tag: string): boolean => coreTags.has(tag)
