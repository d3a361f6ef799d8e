import type { PetIndex } from './pet-index.js'
import { PetStore } from './store.js'

/** The name of the session used when a request names none. */
export const defaultSessionName = 'default'

/** One isolated world: its own pets and id counter. */
export interface Session {
  readonly name: string
  store: PetStore
}

/** What every session starts from, and goes back to on reset. */
export interface StartState {
  pets: PetIndex
  maxPets: number
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
    this.#sessions.set(defaultSessionName, this.#fresh(defaultSessionName))
  }

  #fresh(name: string): Session {
    return { name, store: new PetStore(this.#start.pets, this.#start.maxPets) }
  }

  /** The named session, created when new; marks it most recently used. */
  get(name: string = defaultSessionName): Session {
    let session = this.#sessions.get(name)
    if (session) {
      // Map order is insertion order: re-inserting makes it the most recent.
      this.#sessions.delete(name)
    } else {
      session = this.#fresh(name)
    }
    this.#sessions.set(name, session)
    this.#evict()
    return session
  }

  #evict(): void {
    for (const name of this.#sessions.keys()) {
      if (this.#sessions.size <= this.#max) return
      if (name !== defaultSessionName) this.#sessions.delete(name)
    }
  }
}
