import { Hono, type MiddlewareHandler } from 'hono'
import { badRequest } from '../http/errors.js'
import { jsonBody } from '../body/json-body.js'
import { toMiddleware } from '../http/stage.js'
import { formatRate, parseRate, rateExpectation } from './rate-limit.js'
import type { RateLimitState } from '../sessions/port.js'
import type { Transport } from '../http/transport.js'
import { objectBody } from '../http/object-body.js'
import type { RateLimitView } from '../admin/admin-bodies.js'

/** What the rate-limit routes work on. */
export interface RateLimitDeps {
  /** Selects the session a route works on (X-Mock-Session). */
  session: MiddlewareHandler
  /** Largest body read, in bytes (413 beyond). */
  bodyLimit: number
  transport: Transport
}

const view = ({ policy, keys }: RateLimitState): RateLimitView =>
  policy ? { rate: formatRate(policy), limit: policy.limit, windowSeconds: policy.windowSeconds, keys } : { rate: null }

/** The session's rate limit: GET it, PUT `{ "rate": "100/m" }` (fresh windows), DELETE to turn it off. */
export const rateLimitRoutes = (deps: RateLimitDeps): Hono => {
  const routes = new Hono()
  routes.get('/rate-limit', deps.session, async (c) => c.json(view(await c.var.session.rateLimit())))
  routes.put('/rate-limit', deps.session, toMiddleware(jsonBody(deps.bodyLimit, deps.transport)), async (c) => {
    const { rate } = objectBody(c.get('body'), ['rate'], '{ "rate": "<n>/<window>" }')
    const policy = typeof rate === 'string' ? parseRate(rate) : undefined
    if (!policy) throw badRequest(`rate must be ${rateExpectation} (got ${JSON.stringify(rate ?? null)}).`)
    await c.var.session.setRateLimit(policy)
    return c.json(view(await c.var.session.rateLimit()))
  })
  routes.delete('/rate-limit', deps.session, async (c) => {
    await c.var.session.setRateLimit(undefined)
    return c.json(view(await c.var.session.rateLimit()))
  })
  return routes
}
