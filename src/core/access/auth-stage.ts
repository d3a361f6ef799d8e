import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.js'
import { equalsAny } from './constant-time.js'
import { authorizationOf } from '../http/request-authorization.js'
import { fromMiddleware, type OnError, type Stage } from '../http/stage.js'

/**
 * Authentication (a hono middleware: bearerAuth, see api-key-auth.ts) as a
 * stage that remembers its last verdict. The middleware alone judges; but a
 * client sends the same Authorization header on every request, and a header
 * identical to the last one it accepted is accepted again at once (compared
 * in constant time, as the keys are) instead of by a second asynchronous
 * pass through it: the verdict depends on that header alone.
 */
export const auth = (middleware: MiddlewareHandler, onError: OnError): Stage => {
  const judged = fromMiddleware(middleware as MiddlewareHandler<AppEnv>, onError)
  let accepted: string[] = []
  return (c, next) => {
    const header = authorizationOf(c)
    if (header !== undefined && accepted.length === 1 && equalsAny(header, accepted)) return next(c)
    return judged(c, (c) => {
      if (header !== undefined) accepted = [header]
      return next(c)
    })
  }
}
