import { Hono, type MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.js'
import { ApiError, badRequest } from '../http/errors.js'
import { type FaultRuleInput, maxFaultRules } from '../faults/fault-rules.js'
import { toEntry } from '../journal/journal-entry.js'
import { dataBody } from '../body/data-body.js'
import { jsonBody } from '../body/json-body.js'
import { toMiddleware } from '../http/stage.js'
import type { Pet } from '../pets/pet.js'
import type { ProxyStats } from '../proxy/proxy-stats.js'
import { fakePets, SeedError } from '../pets/seed.js'
import type { SessionStore } from '../sessions/port.js'
import type { Snapshot } from '../sessions/snapshot.js'
import type { Transport } from '../http/transport.js'
import type { YamlCodec } from '../body/yaml-data.js'
import type { FaultList, Health, SeedRequest, SessionList, StateBody } from './admin-bodies.js'
import { clockRoutes } from '../clock/clock-routes.js'
import { deprecationRoutes } from '../lifecycle/deprecation-routes.js'
import { rateLimitRoutes } from '../rate-limit/rate-limit-routes.js'
import { harRoutes } from '../journal/har-routes.js'
import { CANONICAL, journalQuery } from '../journal/journal-query.js'
import { snapshotRoutes } from '../sessions/snapshot-routes.js'
import { streamRoutes } from '../journal/stream-routes.js'
import { adminPanelRoutes } from '../panel/panel-routes.js'
import { isOutcome, sessionCreatedHeader, sessionOf } from '../sessions/lifecycle.js'
import { isSessionName } from '../sessions/select-session.js'

/** What the admin API works on. */
export interface AdminDeps {
  sessions: SessionStore
  operations: readonly string[]
  bodyLimit: number
  transport: Transport
  version: string
  /** Checks a fault rule: the rule, or a sentence naming the field. */
  validateRule(input: unknown): FaultRuleInput | string
  /** Checks `{ pets: [...] }` like fixtures; throws SeedError. */
  validateState(input: unknown): Pet[]
  /** Checks a snapshot: complete, or a sentence naming the field. */
  validateSnapshot(input: unknown): Snapshot | string
  /** Snapshots as YAML; none: JSON only. */
  yaml?: YamlCodec
  /** Selects the session a route works on (X-Mock-Session). */
  session: MiddlewareHandler<AppEnv>
  /** Guards every route but health and the panel's files: admin tokens and their scopes (access/admin-scopes.ts). */
  guard?: MiddlewareHandler
  /** The control plane is open on a non-loopback address by choice: health says so. */
  open?: boolean
  /** With --proxy: its counts, shown by health. */
  proxy?: ProxyStats
}

const seedRequest = (body: unknown, maxPets: number, defaultSeed: number): Required<SeedRequest> => {
  const { count, seed, ...rest } = (
    body && typeof body === 'object' && !Array.isArray(body) ? body : { count: null }
  ) as Record<string, unknown>
  const unknown = Object.keys(rest)[0]
  if (unknown !== undefined) throw badRequest(`${unknown} is not a known field.`)
  if (!Number.isSafeInteger(count) || (count as number) < 0 || (count as number) > maxPets) {
    throw badRequest(`count must be an integer between 0 and ${maxPets}.`)
  }
  if (seed !== undefined && (!Number.isSafeInteger(seed) || (seed as number) < 0 || (seed as number) > 2 ** 32 - 1)) {
    throw badRequest(`seed must be an integer between 0 and ${2 ** 32 - 1}.`)
  }
  return { count: count as number, seed: (seed as number | undefined) ?? defaultSeed }
}

/**
 * The control plane under /__admin: health, fault rules, state, journal,
 * sessions, clock, rate limit, deprecations.
 */
export const adminRoutes = (deps: AdminDeps): Hono<AppEnv> => {
  const startedAt = Date.now()
  const body = toMiddleware(jsonBody(deps.bodyLimit, deps.transport))
  const session = deps.session
  const admin = new Hono<AppEnv>()

  admin.get('/health', async (c) => {
    const { pets, sessions, dropped } = await deps.sessions.stats()
    return c.json({
      status: 'ok',
      version: deps.version,
      uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      pets,
      sessions,
      sessionsDropped: dropped,
      ...(deps.open && { admin: 'open' as const }),
      ...(deps.proxy && { proxy: deps.proxy.report() }),
    } satisfies Health)
  })
  admin.route('/', adminPanelRoutes(deps))
  if (deps.guard) admin.use('*', deps.guard)

  admin.post('/faults', session, body, async (c) => {
    const rule = deps.validateRule(c.get('body'))
    if (typeof rule === 'string') throw badRequest(`${rule}.`)
    const added = await c.var.session.addFault(rule)
    if (added === 'full') {
      throw new ApiError(507, `The session holds ${maxFaultRules} fault rules, the most it may; delete some first.`)
    }
    return c.json(added, 201)
  })
  admin.get('/faults', session, async (c) => c.json({ faults: await c.var.session.listFaults() } satisfies FaultList))
  admin.delete('/faults', session, async (c) => {
    await c.var.session.clearFaults()
    return c.body(null, 204)
  })
  admin.delete('/faults/:id', session, async (c) => {
    const id = c.req.param('id')
    if (!CANONICAL.test(id) || !(await c.var.session.removeFault(Number(id)))) {
      throw new ApiError(404, `No fault rule with id ${id}.`)
    }
    return c.body(null, 204)
  })

  admin.post('/reset', session, async (c) => {
    await c.var.session.reset()
    return c.body(null, 204)
  })
  admin.get('/state', session, async (c) => c.json({ pets: await c.var.session.allPets() } satisfies StateBody))
  admin.put('/state', session, toMiddleware(dataBody(deps, 'The state')), async (c) => {
    let pets: Pet[]
    try {
      pets = deps.validateState(c.get('body'))
    } catch (error) {
      if (error instanceof SeedError) throw badRequest(`${error.message}.`)
      throw error
    }
    if (pets.length > c.var.session.maxPets) {
      throw new ApiError(
        507,
        `${pets.length} pets exceed the capacity of ${c.var.session.maxPets}; nothing was replaced.`,
      )
    }
    await c.var.session.replacePets(pets)
    return c.body(null, 204)
  })
  admin.post('/seed', session, body, async (c) => {
    const { count, seed } = seedRequest(c.get('body'), c.var.session.maxPets, await c.var.session.generatorSeed())
    await c.var.session.replacePets(await fakePets(count, seed))
    return c.body(null, 204)
  })

  admin.get('/requests', session, async (c) =>
    c.json({ requests: (await c.var.session.requests(journalQuery(c.req.query(), deps.operations))).map(toEntry) }),
  )
  admin.delete('/requests', session, async (c) => {
    await c.var.session.clearRequests()
    return c.body(null, 204)
  })

  admin.get('/sessions', async (c) => {
    const [sessions, tombstones] = await Promise.all([deps.sessions.sessions(), deps.sessions.tombstones()])
    return c.json({
      sessions: await Promise.all(sessions.map((s) => s.summary())),
      expired: tombstones.map((t) => ({ name: t.name, expiredAt: new Date(t.at).toISOString(), reason: t.reason })),
    } satisfies SessionList)
  })
  // Creates a session explicitly (over its tombstone too): 201 when made, 200 when it existed.
  admin.post('/sessions/:name', async (c) => {
    const name = c.req.param('name')
    if (!isSessionName(name))
      throw badRequest(`A session name is 1 to 64 characters of A-Z a-z 0-9 . _ - (got ${JSON.stringify(name)}).`)
    const selection = await deps.sessions.select(name, 'revive')
    const made = isOutcome(selection) && selection.outcome === 'created'
    const session = sessionOf(selection)
    const summary = await session.summary()
    return made ? c.json(summary, 201, { [sessionCreatedHeader]: 'true' }) : c.json(summary, 200)
  })
  admin.delete('/sessions/:name', async (c) => {
    const name = c.req.param('name')
    if (name === 'default') throw badRequest('The default session cannot be deleted; use POST /__admin/reset.')
    if (!(await deps.sessions.dropSession(name))) throw new ApiError(404, `No session named ${name}.`)
    return c.body(null, 204)
  })
  admin.route('/', clockRoutes(deps))
  admin.route('/', rateLimitRoutes(deps))
  admin.route('/', deprecationRoutes(deps))
  admin.route('/', streamRoutes(deps))
  admin.route('/', harRoutes(deps))
  admin.route('/', snapshotRoutes(deps))
  return admin
}
