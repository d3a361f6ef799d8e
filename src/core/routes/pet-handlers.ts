import { ApiError, badRequest } from '../http/errors.js'
import type { NewPet, PetStatus } from '../state/pet.js'
import { petLimitProblem } from '../state/pet-limits.js'
import { jsonAnswer } from '../http/respond.js'
import { readNewPet, silenceDefaults, type SpecSilences } from '../spec/silences.js'
import type { Next } from '../stages/stage.js'

/** Handlers keyed by operationId; each reads validated input and the session's store. */
export type OperationHandlers = Record<string, Next>

/** What createPet reads beyond its input: the switches of the spec's silences and the fields of a new pet. */
export interface CreateRules {
  silences: SpecSilences
  /** The properties of the contract's createPet body. */
  knownFields: readonly string[]
}

/** The three operations of the contract, given validated input. */
export const petHandlers = (
  basePath: string,
  rules: CreateRules = { silences: silenceDefaults, knownFields: ['name', 'categoryId', 'status'] },
): OperationHandlers => ({
  listPets(c) {
    const { limit, status } = c.get('input').params as { limit: number; status?: PetStatus }
    return jsonAnswer(c, c.get('session').store.list(limit, status))
  },

  createPet(c) {
    const body = c.get('input').body as NewPet
    const tooLarge = petLimitProblem(body)
    if (tooLarge) throw badRequest(`${tooLarge}.`)
    const input = readNewPet(body, rules.silences, rules.knownFields)
    const result = c.get('session').store.create(input)
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
