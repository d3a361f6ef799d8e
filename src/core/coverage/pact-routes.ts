import { Hono } from '../http/hono-app.js'
import { jsonBody } from '../body/json-body.js'
import { insufficientStorage } from '../budget/insufficient-storage.js'
import type { StorageRefusal } from '../budget/storage-refusal.js'
import { ApiError, badRequest } from '../http/errors.js'
import { toMiddleware } from '../http/stage.js'
import type { Transport } from '../http/transport.js'
import { type Pet, petStatuses } from '../spec/pet.js'
import type { Spec } from '../spec/spec.js'
import { resolveSchema } from '../spec/schema.js'
import { objectFields } from '../spec/body-fields.js'
import { isJsonObject } from '../http/json.js'
import type { PactParts } from './pact-document.js'
import type { StateParts } from './provider-states.js'
import type { MaybePromise } from '../async/maybe-promise.js'
import type { SessionAccess } from '../http/request/session-reader.js'
import type { PactSlice } from './pact-slice.js'
// The variable read here: the body the body stage parsed.
import type {} from '../body/read-body.js'

/** What setting a provider state up needs of the session: its pets (pets/ holds them: PetsSlice). */
export interface StatePets {
  /** Most pets the session holds (--max-pets). */
  readonly maxPets: number
  allPets(): MaybePromise<Pet[]>
  /** Or refuses, changing nothing (the memory budget). */
  replacePets(pets: readonly Pet[]): MaybePromise<StorageRefusal | void>
}

/** What the Pact routes work on. */
export interface PactDeps {
  /** The session a route works on (X-Mock-Session). */
  session: SessionAccess<PactSlice & StatePets>
  /** Largest body read, in bytes (413 beyond). */
  bodyLimit: number
  transport: Transport
  /** The contract: the provider's default name, the answers' schemas. */
  spec: Spec
  version: string
  /** Checks a pet as fixtures are checked: the pet, or a sentence naming the field. */
  checkPet(value: unknown, where: string): Pet | string
}

const NAME = /^[^\u0000-\u001f\u007f]{1,200}$/

const nameParam = (value: string | undefined, field: string): string | undefined => {
  if (value === undefined) return undefined
  if (!NAME.test(value)) throw badRequest(`${field} must be 1 to 200 characters, no control characters.`)
  return value
}

/**
 * The Pact document and the provider states' set-up are loaded by their routes on first use (their own
 * chunk in a browser bundle: msw's budget).
 *
 * GET /__admin/pact?consumer=NAME[&provider=NAME]: the session's distinct
 * interactions as a Pact V4 document; POST /__admin/provider-states: the Pact
 * verifier's state change calls, set up in the session.
 */
// Passed to pact-document.ts and provider-states.ts, so that a browser bundle keeps them in the chunks it loads at start.
const pactParts: PactParts = { resolveSchema, objectFields }
const stateParts: StateParts = { ApiError, badRequest, isJsonObject }

export const pactRoutes = (deps: PactDeps): Hono => {
  const { select, read, open, change } = deps.session
  const routes = new Hono()
  const title = String(deps.spec.document['info']?.['title'] ?? 'provider')
  routes.get('/pact', select, async (c) => {
    const consumer = nameParam(c.req.query('consumer'), 'consumer')
    if (consumer === undefined) throw badRequest('consumer is required: GET /__admin/pact?consumer=NAME.')
    const provider = nameParam(c.req.query('provider'), 'provider') ?? title
    const session = read(c)
    const [kept, { pactDocument }] = await Promise.all([session.keptInteractions(), import('./pact-document.js')])
    return c.json(
      pactDocument(deps.spec, kept, { consumer, provider, session: session.name, version: deps.version }, pactParts),
    )
  })
  // A change is checked before its session is selected: a refused one makes none.
  routes.post('/provider-states', change, toMiddleware(jsonBody(deps.bodyLimit, deps.transport)), async (c) => {
    const { petsForState, readStateChange } = (await import('./provider-states.js')).providerStates(stateParts)
    const stateChange = readStateChange(c.get('body'))
    const target = { statuses: petStatuses, checkPet: deps.checkPet }
    // Its 400s do not depend on the session's pets: a dry run on none refuses a bad change before selecting.
    petsForState(stateChange, { ...target, pets: [] })
    const session = await open(c)
    const pets = petsForState(stateChange, { ...target, pets: await session.allPets() })
    if (pets !== undefined) {
      if (pets.length > session.maxPets) {
        throw new ApiError(
          507,
          `${pets.length} pets exceed the capacity of ${session.maxPets}; the state was not set up.`,
        )
      }
      const refused = await session.replacePets(pets)
      if (refused) throw insufficientStorage(refused)
    }
    return c.json({})
  })
  return routes
}
