import type { CoverageSlice } from '../coverage/coverage-slice.js'
import type { StorageRefusal } from '../budget/storage-refusal.js'
import type { BudgetReport } from '../budget/memory-budget.js'
import type { FaultRule } from '../faults/rule-check.js'
import type { FaultsSlice } from '../faults/faults-slice.js'
import type { RandomState } from '../faults/random.js'
import type { JournalSlice } from '../journal/journal-slice.js'
import type { DeprecationSlice } from '../deprecation/deprecation-slice.js'
import type { PactSlice } from '../coverage/pact-slice.js'
import type { PetsSlice } from '../pets/pets-slice.js'
import type { RateLimitPolicy } from '../rate-limit/rate-limit.js'
import type { RateLimitSlice } from '../rate-limit/rate-limit-slice.js'
import type { Pet, PetStatus } from '../spec/pet.js'
import type { MaybePromise } from '../async/maybe-promise.js'
import type { SessionName } from '../http/request/session-reader.js'
import type { ClockSetting, ClockView } from '../time/clock.js'
import type { ClockSlice } from '../time/clock-slice.js'
import type { LatencyRange, World } from './world.js'
import type { Selection, SelectMode } from './lifecycle.js'
import type { Tombstone } from './tombstones.js'

/** A session's sizes, for listings. */
export interface SessionSummary {
  name: string
  pets: number
  faults: number
  requests: number
}

/** Everything a snapshot saves of a session (all but the journal and the deprecation report). */
export interface SessionContents {
  seed: number
  pets: Pet[]
  nextId: number
  faults: FaultRule[]
  nextFaultId: number
  latency: LatencyRange | null
  random: RandomState
  clock: ClockView
  rateLimit: RateLimitPolicy | undefined
}

/**
 * The state port: everything one session holds, composed of the slice each
 * feature owns and declares (PetsSlice in pets/, FaultsSlice in faults/,
 * RateLimitSlice, DeprecationSlice in deprecation/, JournalSlice, ClockSlice in
 * time/, CoverageSlice, PactSlice) and what the session as a whole does (reset, snapshots, listings).
 * A feature reads its own slice (http/request/session-reader.ts); the composition
 * roots and the stores (memory-store.ts, the Node host's Redis store) know
 * the whole. Stages, handlers and admin routes talk to this and to
 * {@link SessionStore}, never to a backend's parts.
 *
 * Every method may answer later ({@link MaybePromise}), so that a networked
 * backend (issue 22: Redis, each call one round trip or one Lua script) goes
 * through the same stages as the in-memory one, which answers now.
 *
 * Atomicity: each method is ONE change. Where a request needs to read and
 * then write (allocate an id, count a rule down, count a rate-limit window,
 * draw from the generator), the port has one method doing both, so that two
 * replicas serving the same session never interleave inside it. A backend
 * must make each of these methods atomic as a whole (on Redis: one Lua
 * script or one MULTI), and must never leave half of one applied.
 */
export interface SessionState
  extends
    SessionName,
    PetsSlice,
    FaultsSlice,
    RateLimitSlice,
    DeprecationSlice,
    ClockSlice,
    JournalSlice,
    CoverageSlice,
    PactSlice {
  /** Ends every subscription (the session is dropped or the server stops). */
  close(): void

  /** Atomic: back to the start-up state (pets, rules, empty journal, clock, rate limit, empty report, no coverage counted). */
  reset(): MaybePromise<void>
  /** What a snapshot saves. */
  contents(): MaybePromise<SessionContents>
  /** Atomic: a snapshot load: the world, the clock and the rate limit at once; the journal stays. Or refused beyond the memory budget, changing nothing. */
  load(world: World, clock: ClockSetting, rateLimit: RateLimitPolicy | undefined): MaybePromise<void | StorageRefusal>
  summary(): MaybePromise<SessionSummary>
}

/**
 * A read a request is about to make, named when its session is selected so
 * that a store that lives elsewhere can answer it with the selection (one
 * round trip, not two). A hint: the store answers the later call from it
 * only when that call asks for the same, and the in-memory store ignores it.
 */
export type ReadAhead = { getPet: number } | { listPets: { limit: number; status: PetStatus | undefined } }

/** The session registry behind the port. */
export interface SessionStore {
  /**
   * Atomic: the named session (default: the default one), created from the
   * start state when new and marked most recently used; throws the ApiError
   * of an outcome that leaves none (see {@link select}). `readAhead`: see {@link ReadAhead}.
   */
  session(name?: string, readAhead?: ReadAhead): MaybePromise<SessionState>
  /**
   * Atomic: the named session as `mode` allows (sessions/lifecycle.ts): found
   * and marked used; or made from the start state (outcome `created`); or
   * none: `expired` (a tombstone, which `revive` clears), `full` (the cap is
   * reached once the sessions idle past the TTL are dropped), `unknown` (mode
   * `read`). A session idle past the TTL is dropped, leaving a tombstone.
   * {@link session} is `select(name, 'use')` throwing the outcome's error.
   */
  select(name: string | undefined, mode: SelectMode, readAhead?: ReadAhead): MaybePromise<Selection<SessionState>>
  /** Every session, least recently used first, without touching recency. */
  sessions(): MaybePromise<SessionState[]>
  /** The tombstones of sessions dropped by expiry, oldest first. */
  tombstones(): MaybePromise<Tombstone[]>
  /** Drops a session; false for the default one or an unknown name. */
  dropSession(name: string): MaybePromise<boolean>
  /**
   * Atomic: drops `session`, which the caller's own selection made (outcome `created`), unless any
   * other selection has used it since (or it is gone): a change refused (507) in a session its
   * request made leaves none, and never drops another request's work. A tombstone its making
   * cleared (mode `revive`) is back. True when dropped.
   */
  discardMade(session: SessionState): MaybePromise<boolean>
  /** The default session's pets, the number of sessions and of drops by expiry, for health, without touching recency. */
  stats(): MaybePromise<{ pets: number; sessions: number; dropped: number }>
  /** Ends what every session holds open (the server stops). */
  close(): void
  /** What the memory budget holds, when the store keeps its own count (a shared one); default: the app's. */
  memory?(): MaybePromise<BudgetReport>
  /**
   * Whether the store takes writes now, for a store that may refuse them while it serves reads (Redis
   * at its maxmemory: health's `store`, the metrics); rejects while it cannot be reached at all.
   */
  writes?(): MaybePromise<StoreWrites>
}

/** GET /__admin/health's `store`: whether the store takes writes now, and if not, why (its refusal). */
export interface StoreWrites {
  writable: boolean
  /** Why it refuses writes (a sentence quoting the store's refusal); absent while it takes them. */
  reason?: string
}
