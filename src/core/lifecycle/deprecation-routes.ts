import { Hono, type MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.js'
import type { DeprecationList } from '../admin/admin-bodies.js'

/** What the deprecation report works on. */
export interface DeprecationDeps {
  /** Selects the session a route works on (X-Mock-Session). */
  session: MiddlewareHandler<AppEnv>
}

/** Who still calls the deprecated operations in this session, counted apart from the journal. */
export const deprecationRoutes = (deps: DeprecationDeps): Hono<AppEnv> => {
  const routes = new Hono<AppEnv>()
  routes.get('/deprecations', deps.session, async (c) =>
    c.json({ deprecations: await c.var.session.deprecationReport() } satisfies DeprecationList),
  )
  return routes
}
