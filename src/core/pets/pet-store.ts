import type { StorageRefusal } from '../budget/storage-refusal.js'
import { withJsonText } from '../http/known-json.js'
import type { NewPet, Pet, PetStatus } from '../spec/pet.js'
import { toPet } from '../spec/pet.js'
import { PetIndex } from './pet-index.js'

/** Why a create was refused ('full': --max-pets; or the memory budget's refusal); the HTTP layer maps it to a status. */
export type CreateRefusal = 'full' | StorageRefusal

/**
 * One world of pets: a shared, never-modified base (the seed data) plus the
 * pets created since, whose ids all exceed the base's. Sharing the base makes
 * a reset or a new session O(1) whatever the seed size. Knows nothing of HTTP.
 */
export class PetStore {
  readonly #base: PetIndex
  readonly #added = new PetIndex()
  readonly #capacity: number
  #nextId: number
  /** The last page listed, and the number of created pets it was listed at (see {@link list}). */
  #page: { limit: number; status: PetStatus | undefined; added: number; pets: Pet[] } | undefined

  /** `nextId` (a restored snapshot's) must exceed every id of `base`; default: right after the largest. */
  constructor(base: PetIndex, capacity: number, nextId: number = base.maxId + 1) {
    this.#base = base
    this.#capacity = capacity
    this.#nextId = nextId
  }

  get size(): number {
    return this.#base.size + this.#added.size
  }

  /** The id the next created pet gets. */
  get nextId(): number {
    return this.#nextId
  }

  get(id: number): Pet | undefined {
    return this.#added.get(id) ?? this.#base.get(id)
  }

  /**
   * Up to `limit` pets ascending by id, only those with `status` when given. Not to be changed: the
   * last page is answered again, with its JSON text (http/known-json.ts), while nothing was created.
   * A speed trick, contained here: a client polling a list asks the same page again and again, and
   * serialising it was the largest cost of such a request (about 1 µs of 12 pets, a CPU profile of
   * `npm run bench`'s list). Pets never change and are only ever added, so the page is the same
   * while their number is; the text is the one the answer would have written (JSON.stringify's).
   * One page a store, of at most the contract's largest `limit`.
   */
  list(limit: number, status?: PetStatus): Pet[] {
    const last = this.#page
    if (last !== undefined && last.limit === limit && last.status === status && last.added === this.#added.size)
      return last.pets
    const page = this.#base.first(limit, status)
    if (page.length < limit) page.push(...this.#added.first(limit - page.length, status))
    this.#page = { limit, status, added: this.#added.size, pets: withJsonText(page, JSON.stringify(page)) }
    return page
  }

  /** Stores a new pet under the next id, or says why it cannot. */
  create(input: NewPet): Pet | CreateRefusal {
    if (this.size >= this.#capacity || !Number.isSafeInteger(this.#nextId)) return 'full'
    const pet = toPet(this.#nextId++, input)
    this.#added.append(pet)
    return pet
  }

  /** Every pet, ascending by id. */
  all(): Pet[] {
    return [...this.#base.all(), ...this.#added.all()]
  }
}
