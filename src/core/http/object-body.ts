import { badRequest } from './errors.js'
import { isJsonObject } from './json.js'

/**
 * The fields of a JSON object body, refusing anything else: 400 with `shape`
 * when it is not an object, 400 naming the first unknown field.
 */
export const objectBody = (body: unknown, known: readonly string[], shape: string): Record<string, unknown> => {
  if (!isJsonObject(body)) throw badRequest(`The body must be ${shape}.`)
  const unknown = Object.keys(body).find((key) => !known.includes(key))
  if (unknown !== undefined) throw badRequest(`${unknown} is not a known field; expected ${shape}.`)
  return body as Record<string, unknown>
}
