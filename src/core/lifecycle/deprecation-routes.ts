import { Hono, type MiddlewareHandler } from 'hono'
import type { DeprecationList } from '../admin/admin-bodies.js'

/** What the deprecation report works on. */
export interface DeprecationDeps {
  /** Selects the session a route works on (X-Mock-Session). */
  session: MiddlewareHandler
}

/** Who still calls the deprecated operations in this session, counted apart from the journal. */
export const deprecationRoutes = (deps: DeprecationDeps): Hono => {
  const routes = new Hono()
  routes.get('/deprecations', deps.session, async (c) =>
    c.json({ deprecations: await c.var.session.deprecationReport() } satisfies DeprecationList),
  )
  return routes
}
