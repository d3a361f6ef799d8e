import { Hono } from '../http/hono-app.js'
import { jsonBody } from '../body/json-body.js'
import { badRequest } from '../http/errors.js'
import { objectBody } from '../http/object-body.js'
import { toMiddleware } from '../http/stage.js'
import type { Transport } from '../http/transport.js'
import type { SessionAccess } from '../http/request/session-reader.js'
import { formatRate, parseRate, rateExpectation } from './rate-limit.js'
import type { RateLimitSlice, RateLimitState } from './rate-limit-slice.js'
// The variable read here: the body the body stage parsed.
import type {} from '../body/read-body.js'

/** GET, PUT and DELETE /__admin/rate-limit: the policy (`rate: null` when off) and how many keys it tracks. */
export type RateLimitView = { rate: string; limit: number; windowSeconds: number; keys: number } | { rate: null }

/** What the rate-limit routes work on. */
export interface RateLimitDeps {
  /** The session a route works on (X-Mock-Session). */
  session: SessionAccess<RateLimitSlice>
  /** Largest body read, in bytes (413 beyond). */
  bodyLimit: number
  transport: Transport
}

const view = ({ policy, keys }: RateLimitState): RateLimitView =>
  policy ? { rate: formatRate(policy), limit: policy.limit, windowSeconds: policy.windowSeconds, keys } : { rate: null }

/** The session's rate limit: GET it, PUT `{ "rate": "100/m" }` (fresh windows), DELETE to turn it off. */
export const rateLimitRoutes = (deps: RateLimitDeps): Hono => {
  const { select, read, open, change } = deps.session
  const routes = new Hono()
  routes.get('/rate-limit', select, async (c) => c.json(view(await read(c).rateLimit())))
  // A change is checked before its session is selected: a refused one makes none.
  routes.put('/rate-limit', change, toMiddleware(jsonBody(deps.bodyLimit, deps.transport)), async (c) => {
    const { rate } = objectBody(c.get('body'), ['rate'], '{ "rate": "<n>/<window>" }')
    const policy = typeof rate === 'string' ? parseRate(rate) : undefined
    if (!policy) throw badRequest(`rate must be ${rateExpectation} (got ${JSON.stringify(rate ?? null)}).`)
    const session = await open(c)
    await session.setRateLimit(policy)
    return c.json(view(await session.rateLimit()))
  })
  routes.delete('/rate-limit', select, async (c) => {
    await read(c).setRateLimit(undefined)
    return c.json(view(await read(c).rateLimit()))
  })
  return routes
}
