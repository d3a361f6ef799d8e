import type { Pet, PetStatus } from './pet.js'

/**
 * Pets in ascending id order, indexed by id and by status. Append-only: a pet
 * is added only with an id larger than every id already in it, so every list
 * stays sorted without sorting and a page costs O(limit).
 */
export class PetIndex {
  readonly #all: Pet[] = []
  readonly #byId = new Map<number, Pet>()
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
    this.#byId.set(pet.id, pet)
    if (pet.status === undefined) return
    const list = this.#byStatus.get(pet.status)
    if (list) list.push(pet)
    else this.#byStatus.set(pet.status, [pet])
  }

  get(id: number): Pet | undefined {
    return this.#byId.get(id)
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
