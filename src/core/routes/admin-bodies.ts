import type { FaultRule } from '../faults.js'
import type { JournalEntry } from '../journal.js'
import type { Pet } from '../pet.js'
import type { SessionSummary } from '../sessions.js'

/** GET /__admin/health. */
export interface Health {
  status: 'ok'
  version: string
  uptimeSeconds: number
  /** Pets of the default session. */
  pets: number
  sessions: number
}

/** The body of POST /__admin/seed; `seed` defaults to the server's --seed. */
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
}
