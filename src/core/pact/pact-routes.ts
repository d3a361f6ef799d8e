import { Hono, type MiddlewareHandler } from 'hono'
import type { ValidateFunction } from 'ajv'
import type { AppEnv } from '../app-env.js'
import { ApiError, badRequest } from '../http/errors.js'
import { validatePets, SeedError } from '../pets/seed.js'
import { petStatuses } from '../pets/pet.js'
import type { Spec } from '../spec/spec.js'
import { pactDocument } from './pact-document.js'
import { petsForState, readStateChange } from './provider-states.js'

/** What the Pact routes work on. */
export interface PactDeps {
  /** Selects the session a route works on (X-Mock-Session). */
  session: MiddlewareHandler<AppEnv>
  /** Reads a JSON body into `c.var.body`. */
  body: MiddlewareHandler<AppEnv>
  spec: Spec
  version: string
  validatePet: ValidateFunction
}

const NAME = /^[^\u0000-\u001f\u007f]{1,200}$/

const nameParam = (value: string | undefined, field: string): string | undefined => {
  if (value === undefined) return undefined
  if (!NAME.test(value)) throw badRequest(`${field} must be 1 to 200 characters, no control characters.`)
  return value
}

/**
 * GET /__admin/pact?consumer=NAME[&provider=NAME]: the session's distinct
 * interactions as a Pact V4 document; POST /__admin/provider-states: the Pact
 * verifier's state change calls, set up in the session.
 */
export const pactRoutes = (deps: PactDeps): Hono<AppEnv> => {
  const routes = new Hono<AppEnv>()
  const title = String(deps.spec.document['info']?.['title'] ?? 'provider')
  routes.get('/pact', deps.session, async (c) => {
    const consumer = nameParam(c.req.query('consumer'), 'consumer')
    if (consumer === undefined) throw badRequest('consumer is required: GET /__admin/pact?consumer=NAME.')
    const provider = nameParam(c.req.query('provider'), 'provider') ?? title
    const session = c.var.session
    const kept = await session.keptInteractions()
    return c.json(pactDocument(deps.spec, kept, { consumer, provider, session: session.name, version: deps.version }))
  })
  routes.post('/provider-states', deps.session, deps.body, async (c) => {
    const change = readStateChange(c.get('body'))
    const session = c.var.session
    const pets = petsForState(change, {
      pets: await session.allPets(),
      statuses: petStatuses,
      checkPet: (value, where) => {
        try {
          return validatePets([value], deps.validatePet, where)[0]!
        } catch (error) {
          if (error instanceof SeedError) return error.message.replace(/: entry 0/, '')
          throw error
        }
      },
    })
    if (pets !== undefined) {
      if (pets.length > session.maxPets) {
        throw new ApiError(
          507,
          `${pets.length} pets exceed the capacity of ${session.maxPets}; the state was not set up.`,
        )
      }
      await session.replacePets(pets)
    }
    return c.json({})
  })
  return routes
}
