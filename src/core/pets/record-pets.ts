import type { ValidateFunction } from 'ajv'
import { type Pet, toPet } from '../spec/pet.js'
import type { PetsSlice } from './pets-slice.js'

/**
 * Keeps the pets a deployment answered (a list, or one pet, with --proxy) in
 * the session's store, by id, so that the session's snapshot replays them offline. Only
 * pets the contract's `Pet` accepts; nothing when the store would overflow.
 */
export const recordPets = async (session: PetsSlice, body: unknown, validatePet: ValidateFunction): Promise<void> => {
  const seen = (Array.isArray(body) ? body : [body]).filter((pet): pet is Pet => validatePet(pet))
  if (seen.length === 0) return
  const byId = new Map((await session.allPets()).map((pet) => [pet.id, pet]))
  let changed = false
  for (const pet of seen) {
    const kept = toPet(pet.id, pet)
    if (JSON.stringify(byId.get(pet.id)) === JSON.stringify(kept)) continue
    byId.set(pet.id, kept)
    changed = true
  }
  if (!changed || byId.size > session.maxPets) return
  await session.replacePets([...byId.values()].sort((a, b) => a.id - b.id))
}
