import type { Context } from 'hono'
import type { AppEnv } from '../app-env.js'
import { ApiError, badRequest } from '../http/errors.js'
import { isJsonType, parseJsonExact } from '../http/json.js'
import { bodyIsAbsent, readBodyText } from '../http/read-body.js'
import type { Transport } from '../http/transport.js'
import type { Stage } from '../http/stage.js'

/**
 * Reads a JSON request body into `c.var.body` (its text into `c.var.bodyText`):
 * 400 when there is none (whatever the content type), 415 unless the content
 * type is application/json, 413 beyond `maxBytes` (checked before parsing,
 * with or without Content-Length), 400 when blank, not UTF-8 or not JSON.
 */
export const readJsonBody = async (c: Context<AppEnv>, maxBytes: number, transport: Transport): Promise<void> => {
  const read = (max: number) => transport.readBody(c, max)
  const declaredLength = c.req.header('Content-Length')
  if (!isJsonType(c.req.header('Content-Type'))) {
    // No body is a missing body, not one of the wrong type (the spec's 400 for createPet).
    if (await bodyIsAbsent(read, declaredLength)) {
      c.set('bodyText', '')
      throw required()
    }
    throw new ApiError(415, 'Request body must be JSON; send Content-Type: application/json.')
  }
  const text = await readBodyText(read, declaredLength, maxBytes)
  if (text === 'too_large') throw new ApiError(413, `Request body is larger than the limit of ${maxBytes} bytes.`)
  if (text === 'not_utf8') throw badRequest('Request body is not valid UTF-8.')
  c.set('bodyText', text)
  if (text.trim() === '') throw required()
  const parsed = parseJsonExact(text)
  if (!parsed.ok) throw badRequest(parsed.message)
  c.set('body', parsed.value)
}

const required = () => badRequest('Request body is required: a JSON object.')

/** {@link readJsonBody} as a stage: the API's operations with a body, and the admin routes (through `toMiddleware`). */
export const jsonBody =
  (maxBytes: number, transport: Transport): Stage =>
  (c, next) =>
    readJsonBody(c, maxBytes, transport).then(() => next(c))
