import type { ApiError, badRequest } from '../http/errors.js'
import type { isJsonObject } from '../http/json.js'
import type { Pet, PetStatus } from '../spec/pet.js'

/**
 * The provider states of the pacts the mock writes, set up again in a session when the Pact verifier
 * asks (POST /__admin/provider-states); answer-state.ts names them from an answer (what a consumer's
 * request relied on). One vocabulary:
 *
 * - `a pet with id 7 exists` (params: the pet) and `no pet with id 999` (params: `{ id }`): getPet;
 * - `pets exist` / `pets with status available exist` (params: `{ pets: [the first pet listed] }`,
 *   and `status`), `no pets exist` / `no pet with status sold exists` (params: `{ status }`): listPets.
 */

const petExists = /^a pet with id (\d+) exists$/
const noPet = /^no pet with id (\d+)$/
const petsExist = /^pets(?: with status (\S+))? exist$/
const noPets = /^no pets exist$|^no pet with status (\S+) exists$/

/** The states a pact of this mock may name, for messages. */
export const knownStates = [
  'a pet with id {id} exists',
  'no pet with id {id}',
  'pets exist',
  'pets with status {status} exist',
  'no pets exist',
  'no pet with status {status} exists',
]

/** A state change request of the Pact verifier (its provider-states set-up call). */
export interface StateChange {
  /** '' when the interaction has no provider state (the verifier calls all the same). */
  state: string
  params: Record<string, unknown>
  action: 'setup' | 'teardown'
}

/** Reads a state change request's body: the request, or throws a 400 naming the field. */
/** What setting a state up works on: the session's pets, a pet check, and the known statuses. */
export interface StateTarget {
  pets: readonly Pet[]
  /** Checks a pet as fixtures are checked: the pet, or a sentence naming the field. */
  checkPet(value: unknown, where: string): Pet | string
  statuses: readonly string[]
}

/**
 * What the provider states take from the modules an app loads at start, passed in by pact-routes.ts: imported here,
 * they would be split by a browser bundle into small chunks of their own, shared with the start (msw's budget).
 */
export interface StateParts {
  ApiError: typeof ApiError
  badRequest: typeof badRequest
  isJsonObject: typeof isJsonObject
}

/** Reading a state change and setting its state up. */
export const providerStates = ({ ApiError, badRequest, isJsonObject }: StateParts) => {
  const changeShape = '{ "state": …, "params": { … }, "action": "setup" | "teardown" }'

  const readStateChange = (body: unknown): StateChange => {
    if (!isJsonObject(body)) throw badRequest(`The body must be a JSON object: ${changeShape}.`)
    const { state, params, action, ...rest } = body
    const unknown = Object.keys(rest)[0]
    if (unknown !== undefined) throw badRequest(`${unknown} is not a known field; expected ${changeShape}.`)
    // The verifier calls once for an interaction without provider states too: no state, nothing to set up.
    if (state !== undefined && state !== null && typeof state !== 'string') {
      throw badRequest('state must be the name of a provider state.')
    }
    if (params !== undefined && params !== null && !isJsonObject(params)) {
      throw badRequest('params must be an object.')
    }
    if (action !== undefined && action !== 'setup' && action !== 'teardown') {
      throw badRequest(`action must be setup or teardown (got ${JSON.stringify(action)}).`)
    }
    return { state: state ?? '', params: (params ?? {}) as Record<string, unknown>, action: action ?? 'setup' }
  }

  const checked = (target: StateTarget, value: unknown, where: string): Pet => {
    const pet = target.checkPet(value, where)
    if (typeof pet === 'string') throw badRequest(`${pet}.`)
    return pet
  }

  const knownStatus = (target: StateTarget, status: string | undefined): PetStatus | undefined => {
    if (status !== undefined && !target.statuses.includes(status)) {
      throw badRequest(`Unknown status ${JSON.stringify(status)}; one of ${target.statuses.join(', ')}.`)
    }
    return status as PetStatus | undefined
  }

  // Each state's params, as answer-state.ts writes them: a field of another state, or a value the state's
  // name contradicts, would be ignored, and the verifier would check the provider against another state.
  const onlyParams = (params: Record<string, unknown>, state: string, takes: readonly string[]): void => {
    const unknown = Object.keys(params).find((key) => !takes.includes(key))
    if (unknown !== undefined) {
      const taken = takes.length > 0 ? takes.join(', ') : 'none'
      throw badRequest(`params.${unknown} is not a parameter of the state ${JSON.stringify(state)}; it takes ${taken}.`)
    }
  }

  const sameId = (params: Record<string, unknown>, id: string): void => {
    const given = params['id']
    if (given !== undefined && String(given) !== id) {
      throw badRequest(`params.id is ${JSON.stringify(given)}, but the state names the pet with id ${id}.`)
    }
  }

  const stateStatus = (params: Record<string, unknown>, named: string | undefined): string | undefined => {
    const given = params['status']
    if (given !== undefined && typeof given !== 'string') throw badRequest('params.status must be a string.')
    if (named !== undefined && given !== undefined && given !== named) {
      throw badRequest(`params.status is ${JSON.stringify(given)}, but the state names the status ${named}.`)
    }
    return named ?? given
  }

  const upsert = (pets: readonly Pet[], added: readonly Pet[]): Pet[] => {
    const ids = new Set(added.map((pet) => pet.id))
    return [...pets.filter((pet) => !ids.has(pet.id)), ...added].sort((a, b) => a.id - b.id)
  }

  /**
   * The session's pets once `change` is set up (teardown changes nothing):
   * the pets the state needs added (replacing those with the same ids), or
   * those it rules out removed. Throws a 400 for a state it does not know.
   */
  const petsForState = (change: StateChange, target: StateTarget): Pet[] | undefined => {
    if (change.action === 'teardown' || change.state === '') return undefined
    const { state, params } = change
    const { pets } = target
    let match: RegExpExecArray | null
    if ((match = petExists.exec(state))) {
      sameId(params, match[1]!)
      const id = Number(match[1])
      const pet = checked(target, { ...params, id }, 'params')
      return upsert(pets, [pet])
    }
    if ((match = noPet.exec(state))) {
      onlyParams(params, state, ['id'])
      sameId(params, match[1]!)
      const id = Number(match[1])
      return pets.some((pet) => pet.id === id) ? pets.filter((pet) => pet.id !== id) : undefined
    }
    if ((match = petsExist.exec(state))) {
      onlyParams(params, state, ['status', 'pets'])
      const status = knownStatus(target, stateStatus(params, match[1]))
      if (params['pets'] !== undefined && !Array.isArray(params['pets'])) {
        throw badRequest('params.pets must be an array of pets.')
      }
      const given = (params['pets'] ?? []) as unknown[]
      const added = given.map((value, i) => checked(target, value, `params.pets[${i}]`))
      if (status !== undefined && added.some((pet) => pet.status !== status)) {
        throw badRequest(`Every pet of params.pets must have status ${status}.`)
      }
      if (added.length > 0) return upsert(pets, added)
      // No pets named: one made up, unless one is there already.
      if (pets.some((pet) => status === undefined || pet.status === status)) return undefined
      const id = pets.reduce((largest, pet) => Math.max(largest, pet.id), 0) + 1
      return upsert(pets, [{ id, name: `Pet ${id}`, categoryId: 1, ...(status && { status }) }])
    }
    if ((match = noPets.exec(state))) {
      onlyParams(params, state, match[1] === undefined ? [] : ['status'])
      const status = knownStatus(target, stateStatus(params, match[1]))
      return status === undefined ? [] : pets.filter((pet) => pet.status !== status)
    }
    throw new ApiError(
      400,
      `Unknown provider state ${JSON.stringify(state)}; this mock sets up: ${knownStates.join('; ')}.`,
    )
  }

  return { readStateChange, petsForState }
}
