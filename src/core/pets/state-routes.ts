import { Hono } from '../http/hono-app.js'
import { dataBody } from '../body/data-body.js'
import { jsonBody } from '../body/json-body.js'
import type { YamlCodec } from '../body/yaml-data.js'
import type { JsonDataReader } from '../body/data-body.js'
import { insufficientStorage } from '../budget/insufficient-storage.js'
import { ApiError, badRequest } from '../http/errors.js'
import { isJsonObject } from '../http/json.js'
import { toMiddleware } from '../http/stage.js'
import type { Transport } from '../http/transport.js'
import type { Pet } from '../spec/pet.js'
import type { SessionAccess } from '../http/request/session-reader.js'
import type { PetsSlice } from './pets-slice.js'
import { fakePets, SeedError } from './seed.js'
import { type DataProfile, dataProfileExpectation, isDataProfile } from './data-profile.js'
import { oneAtATime } from '../async/one-at-a-time.js'
// The variable read here: the body the body stage parsed.
import type {} from '../body/read-body.js'

/** GET and PUT /__admin/state. */
export interface StateBody {
  pets: Pet[]
}

/**
 * The body of POST /__admin/seed; `seed` defaults to the session's (the server's --seed, or a restored
 * snapshot's), `data` to `realistic` (`edge`: see edge-profile.ts).
 */
export interface SeedRequest {
  count: number
  seed?: number
  data?: DataProfile
}

/** What the state routes work on. */
export interface StateDeps {
  /** The session a route works on (X-Mock-Session). */
  session: SessionAccess<PetsSlice>
  /** Largest body read, in bytes (413 beyond). */
  bodyLimit: number
  /** Most pets a session holds (--max-pets). */
  maxPets: number
  transport: Transport
  /** State bodies as YAML; none: JSON only. */
  yaml?: YamlCodec
  /** The host's reader of JSON data bodies; none: parsed on the event loop. */
  jsonData?: JsonDataReader
  /** Checks `{ pets: [...] }` like fixtures, a slice of pets at a time; rejects with a SeedError. */
  validateState(input: unknown): Promise<Pet[]>
}

const seedRequest = (body: unknown, maxPets: number): SeedRequest & { data: DataProfile } => {
  const { count, seed, data, ...rest } = (isJsonObject(body) ? body : { count: null }) as Record<string, unknown>
  const unknown = Object.keys(rest)[0]
  if (unknown !== undefined) throw badRequest(`${unknown} is not a known field.`)
  if (!Number.isSafeInteger(count) || (count as number) < 0 || (count as number) > maxPets) {
    throw badRequest(`count must be an integer between 0 and ${maxPets}.`)
  }
  if (seed !== undefined && (!Number.isSafeInteger(seed) || (seed as number) < 0 || (seed as number) > 2 ** 32 - 1)) {
    throw badRequest(`seed must be an integer between 0 and ${2 ** 32 - 1}.`)
  }
  if (data !== undefined && !isDataProfile(data)) throw badRequest(`data must be ${dataProfileExpectation}.`)
  return { count: count as number, ...(seed !== undefined && { seed: seed as number }), data: data ?? 'realistic' }
}

/** The session's pets: GET and PUT /state (YAML or JSON), POST /seed (faker pets). */
export const stateRoutes = (deps: StateDeps): Hono => {
  const { select, read, open, change } = deps.session
  const routes = new Hono()
  const seeding = oneAtATime()
  routes.get('/state', select, async (c) => c.json({ pets: await read(c).allPets() } satisfies StateBody))
  // A change is checked before its session is selected: a refused one makes none.
  routes.put('/state', change, toMiddleware(dataBody(deps, 'The state')), async (c) => {
    let pets: Pet[]
    try {
      pets = await deps.validateState(c.get('body'))
    } catch (error) {
      if (error instanceof SeedError) throw badRequest(`${error.message}.`)
      throw error
    }
    if (pets.length > deps.maxPets) {
      throw new ApiError(507, `${pets.length} pets exceed the capacity of ${deps.maxPets}; nothing was replaced.`)
    }
    const refused = await (await open(c)).replacePets(pets)
    if (refused) throw insufficientStorage(refused)
    return c.body(null, 204)
  })
  routes.post('/seed', change, toMiddleware(jsonBody(deps.bodyLimit, deps.transport)), async (c) => {
    const { count, data, ...given } = seedRequest(c.get('body'), deps.maxPets)
    const session = await open(c)
    const seed = given.seed ?? (await session.generatorSeed())
    // One seed generated at a time, in slices: what a burst of seeds holds at once is one seed's pets.
    const refused = await seeding.run(async () => session.replacePets(await fakePets(count, seed, data)))
    if (refused) throw insufficientStorage(refused)
    return c.body(null, 204)
  })
  return routes
}
