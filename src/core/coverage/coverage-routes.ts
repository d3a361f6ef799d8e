import { Hono } from '../http/hono-app.js'
import type { SessionAccess } from '../http/request/session-reader.js'
import type { CoverageModel } from './coverage-model.js'
import { coverageReport } from './coverage-report.js'
import type { CoverageSlice } from './coverage-slice.js'

/** What the coverage routes work on. */
export interface CoverageDeps {
  /** The session a route works on (X-Mock-Session). */
  session: SessionAccess<CoverageSlice>
  /** What is counted, derived from the contract (the coverage stage counts by the same model). */
  coverage: CoverageModel
}

/** GET /__admin/coverage: the session's contract coverage; DELETE: counts and kept interactions forgotten. */
export const coverageRoutes = (deps: CoverageDeps): Hono => {
  const { select, read } = deps.session
  const routes = new Hono()
  routes.get('/coverage', select, async (c) => {
    const session = read(c)
    return c.json(coverageReport(deps.coverage, session.name, await session.coverageCounts()))
  })
  routes.delete('/coverage', select, async (c) => {
    await read(c).clearCoverage()
    return c.body(null, 204)
  })
  return routes
}
