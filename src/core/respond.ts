import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { ApiError, ConnectionResetError } from './errors.js'
import type { Logger } from './log.js'

/** The JSON `Error` response for an ApiError, with its extra headers. */
export const errorResponse = (c: Context, error: ApiError): Response =>
  c.json(error.body, error.status as ContentfulStatusCode, error.headers)

/**
 * Maps anything thrown while handling a request to an `Error` response:
 * ApiErrors as they are, hono's HTTPExceptions by status, anything else as a
 * 500 whose details go to the log only.
 */
export const handleError =
  (logger: Logger) =>
  (error: Error, c: Context): Response => {
    if (error instanceof ApiError) return errorResponse(c, error)
    if (error instanceof ConnectionResetError) throw error
    if (error instanceof HTTPException) {
      const res = error.getResponse()
      if (res.headers.get('content-type')?.startsWith('application/json')) return res
      return errorResponse(c, new ApiError(error.status, error.message || res.statusText || 'Request failed.'))
    }
    logger.error(`${c.req.method} ${c.req.path} failed unexpectedly`, error)
    return errorResponse(c, new ApiError(500, 'The server failed unexpectedly; the failure was logged.'))
  }
