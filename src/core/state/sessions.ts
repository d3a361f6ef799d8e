import { type ClockSetting, MockClock } from '../time/clock.js'
import { DeprecationLog } from '../controls/deprecation-log.js'
import { FaultRules } from '../controls/faults.js'
import { Journal } from '../journal/journal.js'
import type { Pet } from './pet.js'
import { PetIndex } from './pet-index.js'
import { type Random, restoreRandom } from '../controls/random.js'
import { RateLimiter, type RateLimitPolicy } from '../controls/rate-limit.js'
import type { SpecOperation } from '../spec/spec.js'
import { PetStore } from './store.js'
import type { LatencyRange, World } from './world.js'

/** The name of the session used when a request names none. */
export const defaultSessionName = 'default'

/** What every session starts from, and goes back to on reset. */
export interface StartState {
  /** Pets, rules, latency, seed and generator position (the start-up options', or --snapshot's). */
  world: World
  maxPets: number
  journalSize: number
  /** The start-up clock (default: real time). */
  clock?: ClockSetting
  /** The start-up rate limit (default: none). */
  rateLimit?: RateLimitPolicy
  /** The operations whose callers the deprecation report counts. */
  deprecated?: readonly SpecOperation[]
}

/** A session's name and sizes, for listings. */
export interface SessionSummary {
  name: string
  pets: number
  faults: number
  requests: number
}

/**
 * One isolated world: its own pets and id counter, fault rules, latency,
 * seeded generator, journal, clock, rate limit and deprecation report.
 */
export class Session {
  readonly name: string
  readonly #start: StartState
  store!: PetStore
  faults!: FaultRules
  /** Every random draw of the session (rule probabilities, latency), in request order. */
  random!: Random
  latency!: LatencyRange | null
  seed!: number
  /** Kept across resets, so that its subscribers stay subscribed. */
  readonly journal: Journal
  clock!: MockClock
  rateLimits!: RateLimiter
  deprecations!: DeprecationLog

  constructor(name: string, start: StartState) {
    this.name = name
    this.#start = start
    this.journal = new Journal(start.journalSize)
    this.reset()
  }

  /**
   * Back to the start-up state: seed pets, start-up rules, empty journal, id
   * counter, start-up clock and rate limit, empty deprecation report.
   */
  reset(): void {
    this.restore(this.#start.world)
    this.journal.clear()
    this.clock = new MockClock(this.#start.clock)
    this.setRateLimit(this.#start.rateLimit)
    this.deprecations = new DeprecationLog(this.#start.deprecated ?? [])
  }

  /** A new rate limit (none: off), with every window fresh. */
  setRateLimit(policy: RateLimitPolicy | undefined): void {
    this.rateLimits = new RateLimiter(policy)
  }

  /** Replaces the world (validated by the caller); the journal, clock and rate limit stay. */
  restore(world: World): void {
    this.random = restoreRandom(world.random)
    this.store = new PetStore(world.pets, this.#start.maxPets, world.nextId)
    this.faults = FaultRules.restore(this.random, world.faults, world.nextFaultId)
    this.latency = world.latency
    this.seed = world.seed
  }

  /** Replaces the pets (validated by the caller); new ids continue after the largest. */
  replacePets(pets: readonly Pet[]): void {
    this.store = new PetStore(PetIndex.from(pets), this.#start.maxPets)
  }

  get maxPets(): number {
    return this.#start.maxPets
  }

  /** Ends what is tied to the session (event streams): it is being dropped. */
  close(): void {
    this.journal.endSubscriptions()
  }

  /** Sizes, for listings. */
  summary(): SessionSummary {
    return { name: this.name, pets: this.store.size, faults: this.faults.size, requests: this.journal.size }
  }
}

/**
 * Named sessions, created on first use from the start state; beyond `max`
 * the least recently used one (never the default) is dropped.
 */
export class SessionRegistry {
  readonly #sessions = new Map<string, Session>()
  readonly #start: StartState
  readonly #max: number
  /** The most recently used session: asked for again, it needs no reordering. */
  #latest: Session | undefined

  constructor(start: StartState, max: number) {
    this.#start = start
    this.#max = max
    this.#sessions.set(defaultSessionName, new Session(defaultSessionName, start))
  }

  /** The named session, created when new; marks it most recently used. */
  get(name: string = defaultSessionName): Session {
    if (this.#latest?.name === name) return this.#latest
    let session = this.#sessions.get(name)
    if (session) {
      // Map order is insertion order: re-inserting makes it the most recent.
      this.#sessions.delete(name)
    } else {
      session = new Session(name, this.#start)
    }
    this.#sessions.set(name, session)
    this.#evict()
    this.#latest = session
    return session
  }

  /** The default session, without touching its recency. */
  get default(): Session {
    return this.#sessions.get(defaultSessionName)!
  }

  /** Every session, least recently used first. */
  list(): Session[] {
    return [...this.#sessions.values()]
  }

  /** Drops a session; the default one cannot be dropped. */
  delete(name: string): boolean {
    const session = this.#sessions.get(name)
    if (name === defaultSessionName || !session) return false
    this.#sessions.delete(name)
    if (this.#latest === session) this.#latest = undefined
    session.close()
    return true
  }

  /** Ends what every session holds open (the server stops). */
  close(): void {
    for (const session of this.#sessions.values()) session.close()
  }

  #evict(): void {
    for (const name of this.#sessions.keys()) {
      if (this.#sessions.size <= this.#max) return
      if (name !== defaultSessionName) this.delete(name)
    }
  }
}
