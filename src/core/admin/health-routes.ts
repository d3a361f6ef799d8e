import { Hono } from 'hono'
import type { ProxyReport, ProxyStats } from '../proxy/proxy-stats.js'
import type { SessionStore } from '../sessions/port.js'

/** GET /__admin/health. */
export interface Health {
  status: 'ok'
  version: string
  uptimeSeconds: number
  /** Pets of the default session. */
  pets: number
  sessions: number
  /** With --proxy: the deployment and the violations counted since start-up. */
  proxy?: ProxyReport
}

/** What health reports on. */
export interface HealthDeps {
  sessions: SessionStore
  version: string
  /** With --proxy: its counts. */
  proxy?: ProxyStats
}

/** GET /health: up, the version, the uptime, the default session's pets and the number of sessions. */
export const healthRoutes = (deps: HealthDeps): Hono => {
  const startedAt = Date.now()
  return new Hono().get('/health', async (c) => {
    const { pets, sessions } = await deps.sessions.stats()
    return c.json({
      status: 'ok',
      version: deps.version,
      uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      pets,
      sessions,
      ...(deps.proxy && { proxy: deps.proxy.report() }),
    } satisfies Health)
  })
}
