import type { ErrorHandler, NotFoundHandler } from 'hono'
import { Hono, type HonoRouter } from '../http/hono-app.js'
import type { BlankEnv } from 'hono/types'
import type { Tenancy } from '../tenants/tenancy.js'
import { sessionPrefixPath } from '../http/request/session-name.js'
import { metricsRoutes } from '../observe/observe-routes.js'
import type { ObserveOptions } from '../observe/observer.js'
import { adminRoutes, type AdminDeps } from './admin-routes.js'
import { stateSizes } from './state-sizes.js'
import { journalStreams } from '../journal/stream/stream-routes.js'
import type { ValidateFunction } from 'ajv'
import { createSnapshotValidator } from '../sessions/snapshot-check.js'
import { snapshotClock } from '../sessions/snapshot.js'
import { formatRate, type RateLimitPolicy } from '../rate-limit/rate-limit.js'
import { type ClockSetting, MockClock } from '../time/clock.js'
import { adminScopes, adminTokenOf, type AdminScopesOptions } from '../access/admin-scope-guard.js'
import { type McpEndpoint, mcpPaths } from './mcp-seam.js'

// The control plane's gate (the refusals' count, the guard) comes in the same chunk: a module
// loaded by an import() of its own would split the modules it shares with the start into more chunks.
export { adminGate } from './admin-gate.js'
// So is the observe listener, for an msw app that observes (msw/create-handlers.ts): loaded with the admin host,
// it splits nothing off the start.
export { observeListener } from '../observe/observe-listener.js'

/** What {@link adminHost} routes, besides what the admin routes work on. */
export interface AdminHostDeps extends Omit<AdminDeps, 'guard' | 'validateSnapshot'> {
  /** Its router (prepare-mock.ts's HostParts); default: hono's TrieRouter. */
  router?: HonoRouter
  /** The contract's `Pet`: snapshots are checked by it. */
  validatePet: ValidateFunction
  /** The seed, clock and rate limit at start: a snapshot that gives none takes them. */
  start: { seed: number; clock: ClockSetting; rateLimit: RateLimitPolicy | undefined }
  onError: ErrorHandler<BlankEnv>
  notFound: NotFoundHandler<BlankEnv>
  /** The admin tokens (the operators' and the tenants'): one guard for every guarded route, metrics included (an unscoped or a metrics token). */
  scopes: AdminScopesOptions
  /** With it, GET /__admin/metrics. */
  metrics?: NonNullable<ObserveOptions['metrics']>
  /** Who owns which session, each tenant's tokens and quotas (tenants/). */
  tenancy: Tenancy
  /** With it, /__admin/mcp (issue 42): the host's MCP endpoint. */
  mcp?: McpEndpoint | undefined
}

/**
 * The control plane under /__admin (admin-routes.ts), and the metrics, as an app of their own: the
 * app loads this module on the first /__admin request (app.ts), so that a browser bundle
 * (src/msw/) carries none of it at start. Routes as admin-paths.ts lists them; errors and
 * unmatched requests are answered as by the app.
 */
export const adminHost = (deps: AdminHostDeps): Hono<BlankEnv> => {
  const host = new Hono<BlankEnv>({ getPath: sessionPrefixPath, ...(deps.router && { router: deps.router }) })
  host.onError(deps.onError)
  host.notFound(deps.notFound)
  // With the slash: the panel's page is `/__admin/` (hono's mergePath drops it after '/__admin').
  const guard = adminScopes(deps.scopes)
  // Made with the host: no stream is open before the first /__admin request.
  const streams = journalStreams(deps.budget, deps.tenancy)
  const { validatePet, validateRule, version, start } = deps
  const validateSnapshot = createSnapshotValidator({
    validatePet,
    validateRule,
    seed: start.seed,
    version,
    startClock: () => snapshotClock(new MockClock(start.clock).view()),
    startRateLimit: start.rateLimit ? formatRate(start.rateLimit) : null,
  })
  host.route('/__admin/', adminRoutes({ ...deps, guard, streams, validateSnapshot }))
  const { metrics, sessions, memory } = deps
  if (metrics)
    host.route(
      '/__admin/',
      metricsRoutes(metrics, { sizes: () => stateSizes(sessions, streams, memory, deps.held) }, guard),
    )
  const { mcp } = deps
  // Behind the guard adminRoutes mounts on every path under /__admin/ (the token, its scope; audited).
  if (mcp)
    for (const [method, path] of mcpPaths)
      host.on(method, path, (c) => {
        const token = adminTokenOf(c)
        return mcp(
          c.req.raw,
          token && { name: token.name, access: token.access, patterns: token.patterns, tenant: token.tenant },
        )
      })
  return host
}
