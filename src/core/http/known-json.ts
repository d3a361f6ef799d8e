// A speed trick, contained here: a store that keeps JSON texts (Redis) parses them for the state
// port, and the answer would serialise the same values back into the same text. The text rides
// along on the value, under a symbol that is not enumerable (JSON.stringify, Object.keys and deep
// equality skip it), and the answer uses it. test/core/http/known-json.test.ts holds it to JSON.stringify's output.
const knownKey = Symbol('known JSON text')

type Known = { [knownKey]?: string }

/**
 * `value`, marked as serialising to `text`, which must be exactly
 * `JSON.stringify(value)` (a text JSON.stringify wrote, parsed into `value`,
 * is). Valid while `value` is not changed: mark only what is answered as it is.
 */
export const withJsonText = <T extends object>(value: T, text: string): T => {
  Object.defineProperty(value, knownKey, { value: text })
  return value
}

/** JSON.stringify, or the text `value` was marked with. */
export const toJsonText = (value: unknown): string =>
  (typeof value === 'object' && value !== null && (value as Known)[knownKey]) || JSON.stringify(value)
