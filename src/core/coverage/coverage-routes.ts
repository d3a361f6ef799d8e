import { Hono, type MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.js'
import type { CoverageModel } from './coverage-model.js'
import { coverageReport } from './coverage-report.js'

/** What the coverage routes work on. */
export interface CoverageDeps {
  /** Selects the session a route works on (X-Mock-Session). */
  session: MiddlewareHandler<AppEnv>
  model: CoverageModel
}

/** GET /__admin/coverage: the session's contract coverage; DELETE: counts and kept interactions forgotten. */
export const coverageRoutes = (deps: CoverageDeps): Hono<AppEnv> => {
  const routes = new Hono<AppEnv>()
  routes.get('/coverage', deps.session, async (c) => {
    const session = c.var.session
    return c.json(coverageReport(deps.model, session.name, await session.coverageCounts()))
  })
  routes.delete('/coverage', deps.session, async (c) => {
    await c.var.session.clearCoverage()
    return c.body(null, 204)
  })
  return routes
}
