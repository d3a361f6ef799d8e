import type { MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { AppEnv } from '../app-env.js'
import { ApiError, badRequest } from '../errors.js'
import { parseJsonExact } from '../json.js'

const isJson = (contentType: string | undefined): boolean =>
  contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json'

/**
 * Reads a JSON request body into `c.var.body`: 415 unless the content type is
 * application/json, 413 beyond `maxBytes` (checked before parsing, with or
 * without Content-Length), 400 when empty or not JSON.
 */
export const jsonBody = (maxBytes: number): MiddlewareHandler<AppEnv> => {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new ApiError(413, `Request body is larger than the limit of ${maxBytes} bytes.`)
    },
  })
  return async function jsonBody(c, next) {
    if (!isJson(c.req.header('Content-Type'))) {
      throw new ApiError(415, 'Request body must be JSON; send Content-Type: application/json.')
    }
    await limit(c, async () => {
      const text = await c.req.text()
      c.set('bodyText', text)
      if (text.trim() === '') throw badRequest('Request body is required: a JSON object.')
      const parsed = parseJsonExact(text)
      if (!parsed.ok) throw badRequest(parsed.message)
      c.set('body', parsed.value)
      await next()
    })
  }
}
