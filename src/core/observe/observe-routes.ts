import type { MiddlewareHandler } from 'hono'
import { Hono } from '../http/hono-app.js'
import { ApiError } from '../http/errors.js'
import type { MetricsExposition, MetricsScope, ReadinessCheck } from './observer.js'

const noStore = { 'Cache-Control': 'no-store' }

/** GET /__admin/health/live and /__admin/health/ready's bodies. */
export interface ProbeBody {
  status: 'live' | 'ready'
}

/**
 * The probes, open like health (no token; any Host, see admin-guard.ts), mounted before the admin
 * routes' guard: `live` answers 200 while the process can answer at all and asks nothing of the
 * store; `ready` answers 200 once `ready` passes, else 503 (the store's own 503 when it cannot be
 * reached, a sentence otherwise).
 */
export const probeRoutes = (ready: ReadinessCheck): Hono =>
  new Hono()
    .get('/health/live', (c) => c.json({ status: 'live' } satisfies ProbeBody, 200, noStore))
    .get('/health/ready', async (c) => {
      const reason = await ready()
      if (reason !== undefined) throw new ApiError(503, reason, { headers: { 'Retry-After': '1' } })
      return c.json({ status: 'ready' } satisfies ProbeBody, 200, noStore)
    })

/**
 * GET /__admin/metrics: the host's exposition text. Mounted after the admin routes and guarded
 * again here (`guard`: the admin token, when one is set), so that it never answers without it.
 */
export const metricsRoutes = (
  metrics: (scope: MetricsScope) => Promise<MetricsExposition>,
  scope: MetricsScope,
  guard: MiddlewareHandler | undefined,
): Hono => {
  const routes = new Hono()
  if (guard) routes.use('/metrics', guard)
  return routes.get('/metrics', async (c) => {
    const { contentType, body } = await metrics(scope)
    return c.body(body, 200, { 'Content-Type': contentType, ...noStore })
  })
}
