import { Composer, type Document, Lexer, LineCounter, Parser } from 'yaml'
import { safeIntegers, yamlParseOptions } from '../core/http/yaml-data.js'
import { duplicateKey } from './yaml-duplicate-key.js'
import { isCoreTag } from './yaml-core-tags.js'
import { exceedsValues } from './yaml-value-count.js'

/** The deepest nesting a YAML data document may have (collections within collections). */
export const maxYamlDepth = 256

/** How many times a YAML document may use one anchor through aliases (the `yaml` package's own bound). */
export const maxYamlAliasCount = 100

/**
 * How many values a document may hold once its aliases are expanded, per
 * character of its text: a document without aliases never has more values
 * than characters plus one, so only aliases can reach it.
 */
export const maxYamlValuesPerChar = 2

/** A YAML data document that cannot be read; the message says why and where (line and column). */
export class YamlDataError extends Error {}

// uniqueKeys off: the package's check compares every key with every other (40,000 keys took 15 s);
// duplicateKey does the same check with a Set. logLevel 'error': warnings never reach stderr.
const composerOptions = { ...yamlParseOptions, uniqueKeys: false, logLevel: 'error' } as const

/** How many tokens are read between two pauses of {@link yamlDataSteps}. */
export const yamlTokensPerStep = 4096

/**
 * Parses one YAML document of data (a snapshot, a state, fixtures, rules),
 * integers exact as in {@link safeIntegers}, in time linear in its length:
 * the nesting is counted while the syntax tree is built (refused beyond
 * {@link maxYamlDepth}), duplicate keys found with a Set, unknown tags
 * refused as soon as one is read, aliases bounded by {@link maxYamlAliasCount} and
 * {@link maxYamlValuesPerChar}.
 * Throws a {@link YamlDataError} naming the problem and its line. A
 * generator: it pauses every {@link yamlTokensPerStep} tokens while reading
 * the text, for a caller to let others run; it returns the value.
 */
export function* yamlDataSteps(text: string): Generator<void, unknown> {
  const lines = new LineCounter()
  const at = (offset: number): string => {
    const { line, col } = lines.linePos(offset)
    return `at line ${line}, column ${col}`
  }
  lines.addNewLine(0)
  const parser = new Parser(lines.addNewLine)
  const composer = new Composer<any, true>(composerOptions)
  const documents: Document.Parsed[] = []
  let tokens = 0
  for (const lexeme of new Lexer().lex(text)) {
    if (++tokens % yamlTokensPerStep === 0) yield
    const offset = parser.offset
    // Refused at the first one: the composer would resolve (and warn about) every one of them.
    if (lexeme.startsWith('!') && !isCoreTag(lexeme)) {
      throw new YamlDataError(`unknown tag ${lexeme} ${at(offset)}; data documents use the core schema's tags only`)
    }
    for (const token of parser.next(lexeme)) documents.push(...composer.next(token))
    // The parser's stack holds the document, each collection open around this token and, in a
    // mapping, the value being read.
    if (parser.stack.length > maxYamlDepth + 2) {
      throw new YamlDataError(`it is nested more than ${maxYamlDepth} levels deep ${at(offset)}`)
    }
  }
  for (const token of parser.end()) documents.push(...composer.next(token))
  documents.push(...composer.end(true, text.length))
  const [document, second] = documents as [Document.Parsed, Document.Parsed?]
  if (second) throw new YamlDataError(`it holds more than one document: the second starts ${at(second.range[0])}`)
  const problem = document.errors[0] ?? document.warnings.find((warning) => warning.code === 'TAG_RESOLVE_FAILED')
  if (problem) throw new YamlDataError(`${problem.message} ${at(problem.pos[0])}`)
  const repeated = duplicateKey(document)
  if (repeated) throw new YamlDataError(`Map keys must be unique: ${repeated.key} is repeated ${at(repeated.offset)}`)
  let value: unknown
  try {
    value = document.toJS({ maxAliasCount: maxYamlAliasCount })
  } catch (error) {
    // toJS refuses alias bombs with a ReferenceError; a stack overflow is nesting through aliases.
    if (error instanceof RangeError) throw new YamlDataError('it is nested too deeply through aliases')
    throw new YamlDataError((error as Error).message)
  }
  const limit = maxYamlValuesPerChar * text.length + 1
  if (exceedsValues(value, limit)) {
    throw new YamlDataError(
      `its aliases expand it to more than ${limit} values (${maxYamlValuesPerChar} per character)`,
    )
  }
  return safeIntegers(value)
}

/** {@link yamlDataSteps} at once: the value, or a {@link YamlDataError}. */
export const parseYamlData = (text: string): unknown => {
  const steps = yamlDataSteps(text)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}
