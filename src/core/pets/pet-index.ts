import type { Pet, PetStatus } from '../spec/pet.js'

/**
 * Pets in ascending id order, indexed by status. Append-only: a pet is added
 * only with an id larger than every id already in it, so every list stays
 * sorted without sorting and a page costs O(limit). No index by id: the list
 * is one, sorted, and where ids run without gaps (created pets always do) a
 * pet sits at its id's offset from the first; a `Map` would cost memory and
 * rehashing on every growth.
 */
export class PetIndex {
  readonly #all: Pet[] = []
  readonly #byStatus = new Map<PetStatus, Pet[]>()

  /** Builds an index from pets in any order; ids must be distinct. */
  static from(pets: readonly Pet[]): PetIndex {
    const index = new PetIndex()
    for (const pet of [...pets].sort((a, b) => a.id - b.id)) index.append(pet)
    return index
  }

  get size(): number {
    return this.#all.length
  }

  get maxId(): number {
    return this.#all.at(-1)?.id ?? 0
  }

  append(pet: Pet): void {
    if (pet.id <= this.maxId && this.size > 0) throw new RangeError(`id ${pet.id} is not increasing`)
    this.#all.push(pet)
    if (pet.status === undefined) return
    const list = this.#byStatus.get(pet.status)
    if (list) list.push(pet)
    else this.#byStatus.set(pet.status, [pet])
  }

  get(id: number): Pet | undefined {
    const all = this.#all
    if (all.length === 0) return undefined
    const atOffset = all[id - all[0]!.id]
    if (atOffset?.id === id) return atOffset
    let low = 0
    let high = all.length - 1
    while (low <= high) {
      const middle = (low + high) >>> 1
      const found = all[middle]!
      if (found.id === id) return found
      if (found.id < id) low = middle + 1
      else high = middle - 1
    }
    return undefined
  }

  /** The first `limit` pets (with `status`, when given), ascending by id. */
  first(limit: number, status?: PetStatus): Pet[] {
    const list = status === undefined ? this.#all : (this.#byStatus.get(status) ?? [])
    return list.slice(0, limit)
  }

  all(): readonly Pet[] {
    return this.#all
  }

  countByStatus(status: PetStatus): number {
    return this.#byStatus.get(status)?.length ?? 0
  }
}
