/**
 * The interactions this replica saw kept in Redis (a session's base and the interaction's key):
 * their seeds are not made or sent again. Making a seed parses the answer and writes it as JSON,
 * which every counted request did on Redis, though almost every interaction is kept already. A key
 * kept here but no longer in Redis (coverage cleared, the session reset or expired, maybe by another
 * replica) is told by the script, and its seed is sent then (redis-session.ts). Bounded: emptied
 * whole when full.
 */
export class KnownInteractions {
  readonly #ids = new Set<string>()

  constructor(readonly cap = 10_000) {}

  has(id: string): boolean {
    return this.#ids.has(id)
  }

  add(id: string): void {
    if (this.#ids.size >= this.cap) this.#ids.clear()
    this.#ids.add(id)
  }

  delete(id: string): void {
    this.#ids.delete(id)
  }
}
