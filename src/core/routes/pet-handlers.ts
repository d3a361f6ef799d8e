import { ApiError } from '../http/errors.js'
import type { NewPet, PetStatus } from '../state/pet.js'
import { jsonAnswer } from '../http/respond.js'
import type { Next } from '../stages/stage.js'

/** Handlers keyed by operationId; each reads validated input and the session's store. */
export type OperationHandlers = Record<string, Next>

/** The three operations of the contract, given validated input. */
export const petHandlers = (basePath: string): OperationHandlers => ({
  listPets(c) {
    const { limit, status } = c.get('input').params as { limit: number; status?: PetStatus }
    return jsonAnswer(c, c.get('session').store.list(limit, status))
  },

  createPet(c) {
    const result = c.get('session').store.create(c.get('input').body as NewPet)
    if (result === 'full') {
      throw new ApiError(507, 'The store is full; no pet was created. Reset it or start with a larger --max-pets.')
    }
    return jsonAnswer(c, result, 201, { location: `${basePath}/pets/${result.id}` })
  },

  getPet(c) {
    const id = c.get('input').params['petId'] as number
    // A rounded id (beyond 2^53) must never match the pet it rounds to.
    const pet = Number.isSafeInteger(id) ? c.get('session').store.get(id) : undefined
    if (!pet) throw new ApiError(404, `No pet with id ${c.req.param('petId')}.`)
    return jsonAnswer(c, pet)
  },
})
