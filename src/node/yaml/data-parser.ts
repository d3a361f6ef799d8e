import { load, YAMLException } from 'js-yaml'
import { safeIntegers } from '../../core/body/yaml-data.js'
import { yamlDataSchema } from './data-schema.js'
import { exceedsValues } from './value-count.js'
import { YamlReading, YamlReadingError } from './reading.js'

/** The deepest nesting a YAML data document may have (collections within collections). */
export const maxYamlDepth = 256

/**
 * How many values a document may hold once its aliases are expanded, per
 * character of its text: a document without aliases never has more values
 * than characters plus one, so only aliases can reach it.
 */
export const maxYamlValuesPerChar = 2

/** A YAML data document that cannot be read; the message says why and where (line and column). */
export class YamlDataError extends Error {}

// js-yaml's reason and where, in the words of this project's limits where it names one of them.
const messageOf = (error: YAMLException, reading: YamlReading, text: string): string => {
  const where = `at line ${error.mark.line + 1}, column ${error.mark.column + 1}`
  if (error.reason.startsWith('nesting exceeded maxDepth'))
    return `it is nested more than ${maxYamlDepth} levels deep ${where}`
  if (error.reason.startsWith('unknown tag ')) {
    // Where the node starts and its tag as written (`!!set`, not `!<tag:yaml.org,2002:set>`).
    const start = reading.lastStart()
    const written = /^\s*(![^\s,[\]{}]*)/.exec(text.slice(start, start + 1024))
    const tag = written?.[1] ?? error.reason.slice('unknown tag '.length)
    const at = written ? reading.at(start + written[0].length - tag.length) : where
    return `unknown tag ${tag} ${at}; data documents use the core schema's tags only`
  }
  if (error.reason === 'duplicated mapping key') {
    return `Map keys must be unique: ${JSON.stringify(String(reading.lastKey()))} is repeated ${where}`
  }
  return `${error.reason} ${where}`
}

/**
 * Parses one YAML document of data (a snapshot, a state, fixtures, rules)
 * with js-yaml, in time and memory linear in its length: integers exact as
 * in {@link safeIntegers}; refused as soon as it is read, nesting beyond
 * {@link maxYamlDepth}, a second document, a %YAML version other than 1.2,
 * a duplicate key or a tag outside the core schema; aliases bounded by
 * {@link maxYamlValuesPerChar}. Throws a {@link YamlDataError} naming the
 * problem, its line and column. A generator: with aliases, it pauses after
 * reading the text, before it counts and copies what they share, for a caller
 * to let others run; it returns the value.
 */
export function* yamlDataSteps(text: string): Generator<void, unknown> {
  const reading = new YamlReading(text, maxYamlDepth)
  let value: unknown
  try {
    // maxDepth counts every node (scalars too): it only keeps the parser's recursion short; the
    // reading counts collections exactly.
    value = load(text, { schema: yamlDataSchema, maxDepth: maxYamlDepth + 2, listener: reading.listener } as object)
  } catch (error) {
    if (error instanceof YamlReadingError) throw new YamlDataError(error.message)
    if (error instanceof YAMLException) throw new YamlDataError(messageOf(error, reading, text))
    throw error
  }
  // Without aliases, a value is a tree of fewer values than characters, its integers already exact.
  if (!reading.aliases) return value ?? null
  yield
  const limit = maxYamlValuesPerChar * text.length + 1
  if (exceedsValues(value, limit)) {
    throw new YamlDataError(
      `its aliases expand it to more than ${limit} values (${maxYamlValuesPerChar} per character)`,
    )
  }
  try {
    // A copy: what aliases share becomes a value of its own at each place it is used, as before.
    return safeIntegers(value)
  } catch (error) {
    // Within the limit of values, but nested deeper than the stack through aliases.
    if (error instanceof RangeError) throw new YamlDataError('it is nested too deeply through aliases')
    throw error
  }
}

/** {@link yamlDataSteps} at once: the value, or a {@link YamlDataError}. */
export const parseYamlData = (text: string): unknown => {
  const steps = yamlDataSteps(text)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}
