import type { DeprecationClient, DeprecationReport, FirstCall } from '../lifecycle/deprecation-log.js'
import type { FaultRule, FaultRuleInput, FaultsFull, FaultTarget } from '../faults/fault-rules.js'
import type { RandomState } from '../faults/random.js'
import type { RateDecision, RateLimitPolicy } from '../rate-limit/rate-limit.js'
import type { JournalListener, JournalQuery, JournalRecord } from '../journal/journal.js'
import type { ClockSetting, ClockView } from '../time/clock.js'
import type { NewPet, Pet, PetStatus } from '../pets/pet.js'
import type { CreateRefusal } from '../pets/pet-store.js'
import type { LatencyRange, World } from './world.js'
import type { Selection, SelectMode } from './lifecycle.js'
import type { Tombstone } from './tombstones.js'

/**
 * A value now, or once a store that lives elsewhere (Redis) has answered.
 * The in-memory store answers now: a request that waits for nothing is then
 * answered without a promise (see http/stage.ts), which the hot path's
 * figures depend on. Consume with {@link whenReady}, never with `await` on
 * the request path.
 */
export type MaybePromise<T> = T | Promise<T>

/** `then` for a value that may not be a promise: synchronous when it is not. */
export const whenReady = <T, R>(value: MaybePromise<T>, use: (value: T) => MaybePromise<R>): MaybePromise<R> =>
  value instanceof Promise ? value.then(use) : use(value)

/** Told whether a deprecated call was its client's first (see noteDeprecatedCall). */
export type DeprecationHeard = (first: FirstCall, client: DeprecationClient, session: string) => void

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

/** A session's rate limit as it stands: the policy (none: off) and how many API keys it tracks. */
export interface RateLimitState {
  policy: RateLimitPolicy | undefined
  keys: number
}

/**
 * The state port: everything one session holds, as the rest of the core asks
 * for it. The stages, handlers and admin routes talk to this and to
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
export interface SessionState {
  readonly name: string
  /** Most pets the session holds (--max-pets). */
  readonly maxPets: number

  /** The pet with `id`; undefined when there is none. */
  getPet(id: number): MaybePromise<Pet | undefined>
  /** Up to `limit` pets ascending by id, only those with `status` when given. */
  listPets(limit: number, status?: PetStatus): MaybePromise<Pet[]>
  /** Every pet, ascending by id. */
  allPets(): MaybePromise<Pet[]>
  /**
   * Atomic: allocates the next id, stores the pet and its index entries; or
   * refuses ('full') at capacity, changing nothing. Ids are never reused.
   */
  createPet(input: NewPet): MaybePromise<Pet | CreateRefusal>
  /** Atomic: replaces every pet (validated by the caller); new ids continue after the largest. */
  replacePets(pets: readonly Pet[]): MaybePromise<void>
  /** The seed of the session's generator (POST /__admin/seed's default). */
  generatorSeed(): MaybePromise<number>

  /**
   * Atomic: the first rule, in creation order, that applies to `target`
   * (operation, petId, then a probability drawn from the session's seeded
   * generator, drawn only for a rule that matches otherwise), counted down
   * when it has `times` and removed at zero; undefined when none applies.
   * The draw, the count and the removal are one change.
   */
  takeFault(target: FaultTarget): MaybePromise<FaultRule | undefined>
  /**
   * False only when the session surely has no fault rule, answered now: the
   * hot path then skips building the target and {@link takeFault} (most
   * requests meet no rule). A backend that cannot tell without a round trip
   * answers true.
   */
  mayFault(): boolean
  /** Atomic: adds a rule under the next rule id. */
  addFault(input: FaultRuleInput): MaybePromise<FaultRule | FaultsFull>
  /** The rules, in creation order, with their remaining counts. */
  listFaults(): MaybePromise<FaultRule[]>
  /** Removes a rule; false when there is none with `id`. */
  removeFault(id: number): MaybePromise<boolean>
  clearFaults(): MaybePromise<void>

  /** Atomic: the latency of the next answer, a draw from the session's generator; undefined when it has none. */
  drawLatency(): MaybePromise<number | undefined>

  /** The rate-limit policy; undefined while there is none (read on every request). */
  rateLimitPolicy(): MaybePromise<RateLimitPolicy | undefined>
  /**
   * Atomic: counts a request of API key `key` against its window at the
   * session clock's now, unless the window is used up; undefined while the
   * session has no limit.
   */
  hitRateLimit(key: string): MaybePromise<RateDecision | undefined>
  rateLimit(): MaybePromise<RateLimitState>
  /** A new policy (none: off), with every window fresh. */
  setRateLimit(policy: RateLimitPolicy | undefined): MaybePromise<void>

  /**
   * Atomic per operation and client: counts a call of a deprecated operation.
   * Whether it was the client's first is answered now, or (a store that lives
   * elsewhere) told later to `heard`, with the client and the session's name;
   * nothing waits for it. A callback, not a promise: a promise per call cost
   * the hot path of a deprecated operation a sixth of its throughput on Redis.
   */
  noteDeprecatedCall(operation: string, client: DeprecationClient, now: number, heard: DeprecationHeard): FirstCall
  deprecationReport(): MaybePromise<DeprecationReport[]>

  /** The session's mock time, epoch ms. */
  now(): MaybePromise<number>
  clockView(): MaybePromise<ClockView>
  setClock(setting: ClockSetting): MaybePromise<ClockView>

  /**
   * Atomic: the entry under the next entry id, the oldest dropped beyond the
   * journal's size; subscribers (on every replica) hear of it.
   */
  record(entry: Omit<JournalRecord, 'id'>): MaybePromise<JournalRecord>
  /** Recorded requests, oldest first, filtered by `query`. */
  requests(query?: JournalQuery): MaybePromise<JournalRecord[]>
  clearRequests(): MaybePromise<void>
  /** Hears of each entry recorded from now on; returns the unsubscribe. */
  subscribe(listener: JournalListener): () => void
  /** Ends every subscription (the session is dropped or the server stops). */
  close(): void

  /** Atomic: back to the start-up state (pets, rules, empty journal, clock, rate limit, empty report). */
  reset(): MaybePromise<void>
  /** What a snapshot saves. */
  contents(): MaybePromise<SessionContents>
  /** Atomic: a snapshot load: the world, the clock and the rate limit at once; the journal stays. */
  load(world: World, clock: ClockSetting, rateLimit: RateLimitPolicy | undefined): MaybePromise<void>
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
  /** The default session's pets, the number of sessions and of drops by expiry, for health, without touching recency. */
  stats(): MaybePromise<{ pets: number; sessions: number; dropped: number }>
  /** Ends what every session holds open (the server stops). */
  close(): void
}
