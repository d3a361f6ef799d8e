import { Hono } from '../http/hono-app.js'
import type { ProxyReport, ProxyStats } from '../proxy/proxy-stats.js'
import type { SessionStore, StoreWrites } from '../sessions/port.js'
import type { BudgetReport } from '../budget/memory-budget.js'
import type { MaybePromise } from '../async/maybe-promise.js'

/** GET /__admin/health. */
export interface Health {
  status: 'ok'
  version: string
  uptimeSeconds: number
  /** Pets of the default session. */
  pets: number
  sessions: number
  /** Sessions dropped since start-up for being idle past --session-ttl (on Redis: by every replica). */
  sessionsDropped: number
  /** Present when the control plane is open on a non-loopback address (--open-admin): says so. */
  admin?: 'open'
  /** The memory budget and what of it is used (docs/reference/robustness.md). */
  memory: BudgetReport
  /** On a store that may refuse writes while it serves (Redis): whether it takes them now (issue 41). */
  store?: StoreWrites
  /** With --proxy: the deployment and the violations counted since start-up. */
  proxy?: ProxyReport
}

/** What health reports on. */
export interface HealthDeps {
  sessions: SessionStore
  version: string
  /** The control plane is open on a non-loopback address by choice (--open-admin). */
  open?: boolean
  /** The memory budget's figures. */
  memory(): MaybePromise<BudgetReport>
  /** With --proxy: its counts. */
  proxy?: ProxyStats
}

/** GET /health: up, the version, the uptime, the default session's pets, the number of sessions and the memory budget. */
export const healthRoutes = (deps: HealthDeps): Hono => {
  const startedAt = Date.now()
  return new Hono().get('/health', async (c) => {
    const { pets, sessions, dropped } = await deps.sessions.stats()
    return c.json({
      status: 'ok',
      version: deps.version,
      uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      pets,
      sessions,
      sessionsDropped: dropped,
      ...(deps.open && { admin: 'open' as const }),
      memory: await deps.memory(),
      ...(deps.sessions.writes && { store: await deps.sessions.writes() }),
      ...(deps.proxy && { proxy: deps.proxy.report() }),
    } satisfies Health)
  })
}
