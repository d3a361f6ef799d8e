import { Hono } from 'hono'
import type { AppEnv } from '../app-env.js'
import type { AdminDeps } from './admin.js'
import type { DeprecationList } from './admin-bodies.js'

/** Who still calls the deprecated operations in this session, counted apart from the journal. */
export const deprecationRoutes = (deps: Pick<AdminDeps, 'session'>): Hono<AppEnv> => {
  const routes = new Hono<AppEnv>()
  routes.get('/deprecations', deps.session, (c) =>
    c.json({ deprecations: c.var.session.deprecations.report() } satisfies DeprecationList),
  )
  return routes
}
