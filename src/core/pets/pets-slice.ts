import type { StorageRefusal } from '../budget/storage-refusal.js'
import type { NewPet, Pet, PetStatus } from '../spec/pet.js'
import type { MaybePromise } from '../async/maybe-promise.js'
import type { CreateRefusal } from './pet-store.js'

/** A session's pets, as the state port holds them (see sessions/port.ts for what every call may do). */
export interface PetsSlice {
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
  /**
   * Atomic: replaces every pet (validated by the caller); new ids continue after the largest. Or
   * refuses beyond the memory budget, changing nothing.
   */
  replacePets(pets: readonly Pet[]): MaybePromise<void | StorageRefusal>
  /** The seed of the session's generator (POST /__admin/seed's default). */
  generatorSeed(): MaybePromise<number>
}
