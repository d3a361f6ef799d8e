import type { MiddlewareHandler } from 'hono'
import type { Logger } from './log.js'

/** One log line per request: method, path, status and milliseconds. */
export const requestLog = (logger: Logger & Required<Pick<Logger, 'request'>>): MiddlewareHandler =>
  async function requestLog(c, next) {
    const start = performance.now()
    await next()
    logger.request({ method: c.req.method, path: c.req.path, status: c.res.status, ms: performance.now() - start })
  }
