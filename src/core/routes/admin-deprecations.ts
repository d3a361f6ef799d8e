import { Hono, type MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.js'
import type { DeprecationList } from './admin-bodies.js'

/** What the deprecation report works on. */
export interface DeprecationDeps {
  /** Selects the session a route works on (X-Mock-Session). */
  session: MiddlewareHandler<AppEnv>
}

/** Who still calls the deprecated operations in this session, counted apart from the journal. */
export const deprecationRoutes = (deps: DeprecationDeps): Hono<AppEnv> => {
  const routes = new Hono<AppEnv>()
  routes.get('/deprecations', deps.session, (c) =>
    c.json({ deprecations: c.var.session.deprecations.report() } satisfies DeprecationList),
  )
  return routes
}
