import { Hono } from '../http/hono-app.js'
import type { SessionAccess } from '../http/request/session-reader.js'
import type { DeprecationReport } from './deprecation-log.js'
import type { DeprecationSlice } from './deprecation-slice.js'

/** GET /__admin/deprecations: per deprecated operation, who still calls it. */
export interface DeprecationList {
  deprecations: DeprecationReport[]
}

/** What the deprecation report works on. */
export interface DeprecationDeps {
  /** The session a route works on (X-Mock-Session). */
  session: SessionAccess<DeprecationSlice>
}

/** Who still calls the deprecated operations in this session, counted apart from the journal. */
export const deprecationRoutes = (deps: DeprecationDeps): Hono => {
  const { select, read } = deps.session
  const routes = new Hono()
  routes.get('/deprecations', select, async (c) =>
    c.json({ deprecations: await read(c).deprecationReport() } satisfies DeprecationList),
  )
  return routes
}
