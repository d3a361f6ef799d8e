import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.js'
import { fromMiddleware, type OnError, type Stage } from '../http/stage.js'

/**
 * A CORS policy (see cors-policy.ts) as a stage, entered only by requests
 * with an Origin: only browsers send one, and CORS headers mean nothing
 * without it. Skipping it also spares every other answer a copy: hono's cors
 * touches the response before the rest runs.
 */
export const cors = (policy: MiddlewareHandler, onError: OnError): Stage => {
  const withPolicy = fromMiddleware(policy as MiddlewareHandler<AppEnv>, onError)
  return (c, next) => (c.req.header('Origin') === undefined ? next(c) : withPolicy(c, next))
}
