import { pathPrefixOf } from '../sessions/session-prefix.js'
import { ApiError, badRequest } from '../http/errors.js'
import type { Context } from 'hono'
import type { AppEnv } from '../app-env.js'
import type { NewPet, Pet, PetStatus } from './pet.js'
import { petLimitProblem } from './pet-limits.js'
import type { CreateRefusal } from './pet-store.js'
import { jsonAnswer } from '../http/respond.js'
import { readNewPet, silenceDefaults, type SpecSilences } from '../spec/silences.js'
import type { Next } from '../http/stage.js'

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
    const pets = c.get('session').listPets(limit, status)
    return pets instanceof Promise ? pets.then((list) => jsonAnswer(c, list)) : jsonAnswer(c, pets)
  },

  createPet(c) {
    const body = c.get('input').body as NewPet
    const tooLarge = petLimitProblem(body)
    if (tooLarge) throw badRequest(`${tooLarge}.`)
    const result = c.get('session').createPet(readNewPet(body, rules.silences, rules.knownFields))
    return result instanceof Promise ? result.then((r) => created(c, r, basePath)) : created(c, result, basePath)
  },

  getPet(c) {
    const id = c.get('input').params['petId'] as number
    // A rounded id (beyond 2^53) must never match the pet it rounds to.
    const pet = Number.isSafeInteger(id) ? c.get('session').getPet(id) : undefined
    return pet instanceof Promise ? pet.then((p) => found(c, p)) : found(c, pet)
  },
})

// Each store call may answer later (a networked store); the in-memory one answers now, and then no
// promise is made (see sessions/port.ts).
const created = (c: Context<AppEnv>, result: Pet | CreateRefusal, basePath: string): Response => {
  if (result === 'full') {
    throw new ApiError(507, 'The store is full; no pet was created. Reset it or start with a larger --max-pets.')
  }
  return jsonAnswer(c, result, 201, { location: `${pathPrefixOf(c)}${basePath}/pets/${result.id}` })
}

const found = (c: Context<AppEnv>, pet: Pet | undefined): Response => {
  if (!pet) throw new ApiError(404, `No pet with id ${c.req.param('petId')}.`)
  return jsonAnswer(c, pet)
}
