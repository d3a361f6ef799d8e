import { pathPrefixOf } from '../http/request/session-name.js'
import { insufficientStorage } from '../budget/insufficient-storage.js'
import { ApiError, badRequest } from '../http/errors.js'
import type { NewPet, Pet, PetStatus } from '../spec/pet.js'
import { petLimitProblem } from './pet-limits.js'
import type { CreateRefusal } from './pet-store.js'
import { respondJson } from '../http/respond.js'
import { readNewPet, silenceDefaults, type SpecSilences } from '../spec/silences.js'
import type { Next, RequestContext } from '../http/stage.js'
import { whenReady } from '../async/maybe-promise.js'
import type { SessionReader } from '../http/request/session-reader.js'
import type { PetsSlice } from './pets-slice.js'
// The input variable: what validation made of the request.
import type {} from '../spec/validate-request.js'

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
  session: SessionReader<PetsSlice>,
  rules: CreateRules = { silences: silenceDefaults, knownFields: ['name', 'categoryId', 'status'] },
): OperationHandlers => {
  const created = (result: Pet | CreateRefusal, c: RequestContext): Response => {
    if (result === 'full') {
      throw new ApiError(507, 'The store is full; no pet was created. Reset it or start with a larger --max-pets.')
    }
    if ('refused' in result) throw insufficientStorage(result)
    return respondJson(c, result, 201, { location: `${pathPrefixOf(c)}${basePath}/pets/${result.id}` })
  }
  // Each store call may answer later (a networked store): whenReady answers at once for the
  // in-memory one, which answers now.
  return {
    listPets(c) {
      const { limit, status } = c.get('input').params as { limit: number; status?: PetStatus }
      return whenReady(session(c).listPets(limit, status), listed, c)
    },

    createPet(c) {
      const body = c.get('input').body as NewPet
      const tooLarge = petLimitProblem(body)
      if (tooLarge) throw badRequest(`${tooLarge}.`)
      return whenReady(session(c).createPet(readNewPet(body, rules.silences, rules.knownFields)), created, c)
    },

    getPet(c) {
      const id = c.get('input').params['petId'] as number
      // A rounded id (beyond 2^53) must never match the pet it rounds to.
      return whenReady(Number.isSafeInteger(id) ? session(c).getPet(id) : undefined, found, c)
    },
  }
}

const listed = (pets: Pet[], c: RequestContext): Response => respondJson(c, pets)

const found = (pet: Pet | undefined, c: RequestContext): Response => {
  if (!pet) throw new ApiError(404, `No pet with id ${c.req.param('petId')}.`)
  return respondJson(c, pet)
}
