import { type ClockSetting, MockClock } from './clock.js'
import { DeprecationLog } from './deprecation-log.js'
import { type FaultRuleInput, FaultRules } from './faults.js'
import { Journal } from './journal.js'
import type { Pet } from './pet.js'
import { PetIndex } from './pet-index.js'
import { createRandom } from './random.js'
import { RateLimiter, type RateLimitPolicy } from './rate-limit.js'
import type { SpecOperation } from './spec/spec.js'
import { PetStore } from './store.js'

/** The name of the session used when a request names none. */
export const defaultSessionName = 'default'

/** What every session starts from, and goes back to on reset. */
export interface StartState {
  pets: PetIndex
  maxPets: number
  faults: readonly FaultRuleInput[]
  journalSize: number
  /** Seeds each session's random draws (fault probabilities). */
  seed: number
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
 * One isolated world: its own pets and id counter, fault rules, journal,
 * clock, rate limit and deprecation report.
 */
export class Session {
  readonly name: string
  readonly #start: StartState
  store!: PetStore
  faults!: FaultRules
  journal!: Journal
  clock!: MockClock
  rateLimits!: RateLimiter
  deprecations!: DeprecationLog

  constructor(name: string, start: StartState) {
    this.name = name
    this.#start = start
    this.reset()
  }

  /**
   * Back to the start-up state: seed pets, start-up rules, empty journal, id
   * counter, start-up clock and rate limit, empty deprecation report.
   */
  reset(): void {
    this.store = new PetStore(this.#start.pets, this.#start.maxPets)
    this.faults = new FaultRules(createRandom(this.#start.seed), this.#start.faults)
    this.journal = new Journal(this.#start.journalSize)
    this.clock = new MockClock(this.#start.clock)
    this.setRateLimit(this.#start.rateLimit)
    this.deprecations = new DeprecationLog(this.#start.deprecated ?? [])
  }

  /** A new rate limit (none: off), with every window fresh. */
  setRateLimit(policy: RateLimitPolicy | undefined): void {
    this.rateLimits = new RateLimiter(policy)
  }

  /** Replaces the pets (validated by the caller); new ids continue after the largest. */
  replacePets(pets: readonly Pet[]): void {
    this.store = new PetStore(PetIndex.from(pets), this.#start.maxPets)
  }

  get maxPets(): number {
    return this.#start.maxPets
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

  constructor(start: StartState, max: number) {
    this.#start = start
    this.#max = max
    this.#sessions.set(defaultSessionName, new Session(defaultSessionName, start))
  }

  /** The named session, created when new; marks it most recently used. */
  get(name: string = defaultSessionName): Session {
    let session = this.#sessions.get(name)
    if (session) {
      // Map order is insertion order: re-inserting makes it the most recent.
      this.#sessions.delete(name)
    } else {
      session = new Session(name, this.#start)
    }
    this.#sessions.set(name, session)
    this.#evict()
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
    return name !== defaultSessionName && this.#sessions.delete(name)
  }

  #evict(): void {
    for (const name of this.#sessions.keys()) {
      if (this.#sessions.size <= this.#max) return
      if (name !== defaultSessionName) this.#sessions.delete(name)
    }
  }
}
