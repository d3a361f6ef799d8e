import { badRequest } from '../http/errors.js'
import { isJsonType, parseJsonExact } from '../http/json.js'
import type { Transport } from '../http/transport.js'
import type { Stage } from '../http/stage.js'
import { type BodyRules, checkedBodyText } from './checked-text.js'
// The variables set here: the body (and, for JSON, its text).
import type {} from './read-body.js'

/**
 * Reads a JSON request body into `c.var.body` (its text into `c.var.bodyText`):
 * the steps of {@link checkedBodyText} (400 missing, 415 unless the content
 * type is application/json, 413, UTF-8), then 400 when it is not JSON. For
 * the API's operations with a body, and the admin routes (through `toMiddleware`).
 */
export const jsonBody = (maxBytes: number, transport: Transport): Stage => {
  const rules: BodyRules = {
    maxBytes,
    transport,
    unsupported: 'Request body must be JSON; send Content-Type: application/json.',
    // The spec's 400 for createPet.
    missing: 'Request body is required: a JSON object.',
  }
  return (c, next) =>
    checkedBodyText(c, rules, isJsonType(c.req.header('Content-Type'))).then((text) => {
      const parsed = parseJsonExact(text)
      if (!parsed.ok) throw badRequest(parsed.message)
      c.set('body', parsed.value)
      return next(c)
    })
}
