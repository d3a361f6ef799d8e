import type { ProxyReport } from '../proxy/proxy-stats.js'
import type { DeprecationReport } from '../lifecycle/deprecation-log.js'
import type { FaultRule } from '../faults/fault-rules.js'
import type { JournalEntry } from '../journal/journal-entry.js'
import type { Pet } from '../pets/pet.js'
import type { DataProfile } from '../pets/edge-profile.js'
import type { SessionSummary } from '../sessions/port.js'

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

/**
 * The body of POST /__admin/seed; `seed` defaults to the session's (the server's --seed, or a restored
 * snapshot's), `data` to `realistic` (`edge`: see pets/edge-profile.ts).
 */
export interface SeedRequest {
  count: number
  seed?: number
  data?: DataProfile
}

/** GET /__admin/faults. */
export interface FaultList {
  faults: FaultRule[]
}

/** GET and PUT /__admin/state. */
export interface StateBody {
  pets: Pet[]
}

/** GET /__admin/requests, newest first. */
export interface RequestList {
  requests: JournalEntry[]
}

/** GET /__admin/sessions, least recently used first. */
export interface SessionList {
  sessions: SessionSummary[]
}

/** The body of PUT /__admin/clock: an instant (ISO 8601 with a zone) and/or whether the clock stands still. */
export interface ClockRequest {
  now?: string
  frozen?: boolean
}

/** GET, PUT and DELETE /__admin/rate-limit: the policy (`rate: null` when off) and how many keys it tracks. */
export type RateLimitView = { rate: string; limit: number; windowSeconds: number; keys: number } | { rate: null }

/** GET /__admin/deprecations: per deprecated operation, who still calls it. */
export interface DeprecationList {
  deprecations: DeprecationReport[]
}
