import type { ProxyReport } from '../proxy/proxy-stats.js'
import type { DeprecationReport } from '../lifecycle/deprecation-log.js'
import type { FaultRule } from '../faults/fault-rules.js'
import type { JournalEntry } from '../journal/journal-entry.js'
import type { Pet } from '../pets/pet.js'
import type { SessionSummary } from '../sessions/port.js'

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
  /** With --proxy: the deployment and the violations counted since start-up. */
  proxy?: ProxyReport
}

/** The body of POST /__admin/seed; `seed` defaults to the session's (the server's --seed, or a restored snapshot's). */
export interface SeedRequest {
  count: number
  seed?: number
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
  /** Sessions dropped for being idle past --session-ttl: a request naming one answers 410 until it is created again. */
  expired: ExpiredSession[]
}

/** A tombstone as listed: the session's name, when it was dropped (ISO 8601) and why. */
export interface ExpiredSession {
  name: string
  expiredAt: string
  reason: 'idle'
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
