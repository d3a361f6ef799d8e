/**
 * What is left of a session dropped without being asked (issue 28): its name,
 * when and why. A request naming it is answered 410 `session_expired` until
 * the session is created again explicitly, so a world is never replaced by a
 * fresh one behind a client's back.
 */
export interface Tombstone {
  name: string
  /** When it was dropped, epoch ms. */
  at: number
  /** Why: `idle` (unused for longer than --session-ttl). */
  reason: TombstoneReason
  /** The idle time it exceeded, seconds. */
  ttlSeconds: number
}

export type TombstoneReason = 'idle'

/** The most tombstones kept; beyond, the oldest is forgotten (its name then starts afresh). */
export const maxTombstones = 10_000

/** A bounded set of tombstones, oldest forgotten first (the memory store's). */
export class Tombstones {
  readonly #stones = new Map<string, Tombstone>()
  readonly #max: number

  constructor(max = maxTombstones) {
    this.#max = max
  }

  get size(): number {
    return this.#stones.size
  }

  get(name: string): Tombstone | undefined {
    return this.#stones.size === 0 ? undefined : this.#stones.get(name)
  }

  add(stone: Tombstone): void {
    this.#stones.delete(stone.name)
    this.#stones.set(stone.name, stone)
    if (this.#stones.size > this.#max) this.#stones.delete(this.#stones.keys().next().value!)
  }

  /** Forgets a tombstone: the session is created again. */
  remove(name: string): void {
    if (this.#stones.size > 0) this.#stones.delete(name)
  }

  list(): Tombstone[] {
    return [...this.#stones.values()]
  }
}
