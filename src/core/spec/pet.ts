/** The three availability states of the contract's `PetStatus`. */
export const petStatuses = ['available', 'pending', 'sold'] as const
export type PetStatus = (typeof petStatuses)[number]

/** The contract's `NewPet`: what a client sends to create a pet. */
export interface NewPet {
  name: string
  categoryId: number
  status?: PetStatus
}

/** The contract's `Pet`: a stored animal. Stored pets are never mutated. */
export interface Pet extends NewPet {
  id: number
}

/**
 * Copies only the contract's fields, in a fixed key order; absent status stays absent.
 * Each shape is one literal: a status added after the literal would live in a separate
 * property array, about 40 bytes more for every pet a store holds.
 */
export const toPet = (id: number, input: NewPet): Pet =>
  Object.freeze(
    input.status === undefined
      ? { id, name: input.name, categoryId: input.categoryId }
      : { id, name: input.name, categoryId: input.categoryId, status: input.status },
  )
