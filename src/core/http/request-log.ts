import type { MiddlewareHandler } from 'hono'
import type { Logger } from './log.js'
import { traceIdOf } from '../observe/trace-id.js'

/** One log line per request: method, path, status and milliseconds. */
export const requestLog = (logger: Logger & Required<Pick<Logger, 'request'>>): MiddlewareHandler =>
  async function requestLog(c, next) {
    const start = performance.now()
    await next()
    // The request's span's trace, else the caller's traceparent's (none: no field).
    const traceId = c.get('trace')?.traceId ?? traceIdOf(c.req.header('traceparent'))
    logger.request({
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: performance.now() - start,
      ...(traceId !== undefined && { traceId }),
    })
  }
