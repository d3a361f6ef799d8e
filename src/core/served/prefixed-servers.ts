/**
 * The served contract under a session prefix (issue 28): its `servers` is the
 * one server a client generated from it must call, the session's own base
 * (`/sessions/<name>/v1`, relative to the mock), so that it stays in its
 * session. Without a prefix the document is served as it is.
 */

/** The servers entry of a session prefix. */
const serverOf = (prefix: string, basePath: string) => ({
  url: `${prefix}${basePath}`,
  description: `This mock, session ${prefix.slice(prefix.lastIndexOf('/') + 1)}`,
})

/** The document as JSON text, its servers replaced by the prefix's. */
export const prefixedJson = (document: object, prefix: string, basePath: string): string =>
  JSON.stringify({ ...document, servers: [serverOf(prefix, basePath)] }, null, 2)

/**
 * The YAML text with its top-level `servers:` block replaced by the prefix's
 * (added at the end when it has none): the rest of the text, comments
 * included, is unchanged.
 */
export const prefixedYaml = (text: string, prefix: string, basePath: string): string => {
  const server = serverOf(prefix, basePath)
  const block = `servers:\n  - url: ${JSON.stringify(server.url)}\n    description: ${JSON.stringify(server.description)}\n`
  const lines = text.split('\n')
  const start = lines.findIndex((line) => /^servers:\s*(#.*)?$/.test(line))
  if (start === -1) return `${text.endsWith('\n') ? text : `${text}\n`}${block}`
  let end = start + 1
  while (end < lines.length && (lines[end] === '' || /^[\s#-]/.test(lines[end]!))) end++
  return [...lines.slice(0, start), block.trimEnd(), ...lines.slice(end)].join('\n')
}
