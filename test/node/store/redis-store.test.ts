import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { keyFingerprint } from '../../../src/core/http/request/key-fingerprint.js'
import { type AppOptions, createApp, prepareMock, type StoreFactory } from '../../../src/core/app.js'
import type { SessionStore } from '../../../src/core/sessions/port.js'
import type { FaultRuleInput } from '../../../src/core/faults/rule-check.js'
import type { Tenant } from '../../../src/core/tenants/tenant.js'
import { openRedisStore, type RedisSessionStore } from '../../../src/node/store/redis/redis-store.js'
import type { StartState } from '../../../src/core/sessions/memory-store.js'
import { startWorld } from '../../../src/core/sessions/world.js'
import { streamCaps } from '../../../src/core/journal/stream/stream-caps.js'
import { runScenario, scenario } from '../../helpers/port-scenario.js'
import { type RedisServer, startRedis } from '../../helpers/redis-server.js'
import { bearer } from '../../helpers/auth.js'
import { journalRecord } from '../../helpers/journal-records.js'

let redis: RedisServer
let opened: RedisSessionStore[] = []
let prefixes = 0

beforeAll(async () => {
  redis = await startRedis()
}, 60_000)

afterAll(async () => {
  for (const store of opened) store.close()
  await redis?.dispose()
})

/** A store on the test's Redis under a prefix of its own. */
const redisFactory = async (prefix = `t${++prefixes}`) => {
  const factory = await openRedisStore({ url: redis.url, prefix })
  return (start: StartState, max: number) => {
    const store = factory(start, max)
    opened.push(store)
    return store
  }
}

describe('the Redis store', () => {
  it('answers the port scenario exactly as the in-memory store: ids, counted rules, seeded draws, rate limit, clock, sessions', async () => {
    const expected = await runScenario(createApp({ seed: 7, delay: { min: 0, max: 0 } }))
    const app = prepareMock({ seed: 7, delay: { min: 0, max: 0 } }, await redisFactory()).build()
    const got = await runScenario(app)
    for (const [i, answer] of got.entries())
      expect({ step: scenario[i], ...answer }).toEqual({ step: scenario[i], ...expected[i] })
  })

  it('caps event streams per session as the in-memory store does, although each request gets a new session object', async () => {
    const app = prepareMock({}, await redisFactory()).build()
    // The session made first: a stream, as every read, creates none.
    await app.request('/__admin/sessions/qa', { method: 'POST' })
    const open = () => app.request('/__admin/requests/stream', { headers: { 'X-Mock-Session': 'qa' } })
    const streams = await Promise.all(Array.from({ length: streamCaps.perSession }, open))
    expect(streams.map((res) => res.status)).toEqual(Array(streamCaps.perSession).fill(200))
    const refused = await open()
    expect(refused.status).toBe(429)
    expect(await refused.json()).toEqual({
      code: 'too_many_requests',
      message: `This session already has ${streamCaps.perSession} open event streams, the most it may have; close one first.`,
      status: 429,
    })
    for (const res of streams) await res.body!.cancel()
    const again = await open()
    expect(again.status).toBe(200)
    await again.body!.cancel()
  })

  it('draws latency and rule probabilities as the in-memory generator does, one draw after another', async () => {
    const options = {
      seed: 42,
      delay: { min: 0, max: 3 },
      faults: [{ operation: 'getPet', status: 500, probability: 0.3 }],
    }
    const memory = createApp(options)
    const app = prepareMock(options, await redisFactory()).build()
    const sequence = async (target: { request(path: string, init: RequestInit): Response | Promise<Response> }) => {
      const statuses: number[] = []
      for (let i = 0; i < 30; i++) {
        const res = await target.request('/v1/pets/1', { headers: bearer() })
        statuses.push(res.status)
      }
      const res = await target.request('/__admin/snapshot', {})
      const snapshot = (await res.json()) as { random: number[] }
      return { statuses, random: snapshot.random }
    }
    const expected = await sequence(memory)
    expect(expected.statuses).toContain(500)
    expect(await sequence(app)).toEqual(expected)
  })
})

describe('interactions kept on the Redis store, with seeds sent once per replica', () => {
  it('an interaction cleared by another replica is kept again at its next request', async () => {
    const prefix = `kept${++prefixes}`
    const [a, b] = [
      prepareMock({}, await redisFactory(prefix)).build(),
      prepareMock({}, await redisFactory(prefix)).build(),
    ]
    const get = () => a.request('/v1/pets/1', { headers: bearer() })
    const interactions = async () => {
      const pact = (await (await b.request('/__admin/pact?consumer=web')).json()) as {
        interactions: { request: { path: string } }[]
      }
      return pact.interactions.map((interaction) => interaction.request.path)
    }
    for (let i = 0; i < 3; i++) expect((await get()).status).toBe(200)
    await expect.poll(interactions).toEqual(['/v1/pets/1'])
    expect((await b.request('/__admin/coverage', { method: 'DELETE' })).status).toBe(204)
    expect(await interactions()).toEqual([])
    // Replica a has seen it kept and sends no seed; Redis answers that it is gone, and a sends it then.
    expect((await get()).status).toBe(200)
    await expect.poll(interactions).toEqual(['/v1/pets/1'])
    const coverage = (await (await b.request('/__admin/coverage')).json()) as { requests: number }
    expect(coverage.requests).toBe(1)
  })
})

describe('rules by name on the Redis store', () => {
  it('concurrent PUTs of one name through two apps on one Redis leave one rule: one 201, the rest 200, one id', async () => {
    const prefix = `named${++prefixes}`
    const apps = [
      prepareMock({}, await redisFactory(prefix)).build(),
      prepareMock({}, await redisFactory(prefix)).build(),
    ]
    const put = (i: number, name: string) =>
      apps[i % 2]!.request(`/__admin/faults/${name}`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ operation: 'listPets', status: 500 + (i % 4) }),
      })
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => put(i, i % 2 === 0 ? 'race' : 'other')))
    const bodies = (await Promise.all(answers.map((res) => res.json()))) as { id: number; name: string }[]
    for (const name of ['race', 'other']) {
      const mine = answers.flatMap((res, i) => (bodies[i]!.name === name ? [res.status] : []))
      expect(mine.toSorted((a, b) => a - b)).toEqual([...Array(19).fill(200), 201])
      expect(new Set(bodies.filter((b) => b.name === name).map((b) => b.id)).size).toBe(1)
    }
    const { faults } = (await (await apps[1]!.request('/__admin/faults')).json()) as { faults: { name: string }[] }
    expect(faults.map((rule) => rule.name).toSorted()).toEqual(['other', 'race'])
    // Either app deletes it by name; the name is then free on both.
    expect((await apps[0]!.request('/__admin/faults/race', { method: 'DELETE' })).status).toBe(204)
    expect((await apps[1]!.request('/__admin/faults/race', { method: 'DELETE' })).status).toBe(404)
    expect((await put(1, 'race')).status).toBe(201)
  })
})

describe('rules with conditions on the Redis store', () => {
  it('match as in memory (the same facts, compared in Lua): any rules, any requests, the same answers and draws', async () => {
    const keys = ['k1', 'k2']
    const agents = ['mobile-app/1.0', 'web']
    const names = ['Rex', 'Bo']
    const when = fc.record(
      {
        apiKey: fc.oneof(
          fc.constantFrom(...keys),
          fc.constantFrom(...keys).map((k) => ({ fingerprint: keyFingerprint(k) })),
        ),
        headers: fc.constantFrom(...agents).map((ua) => ({ 'User-Agent': ua })),
        query: fc.constantFrom('available', 'sold').map((status) => ({ status })),
      },
      { requiredKeys: [] },
    )
    const rule = fc.record(
      {
        operation: fc.constantFrom('listPets', 'getPet'),
        status: fc.constantFrom(500, 503),
        when,
        times: fc.integer({ min: 1, max: 3 }),
        probability: fc.constantFrom(0.5, 1),
      },
      { requiredKeys: ['status', 'when'] },
    )
    const bodyRule = fc.record({
      operation: fc.constant('createPet'),
      status: fc.constant(502),
      when: fc.constantFrom(...names).map((name) => ({ body: { name } })),
      times: fc.integer({ min: 1, max: 2 }),
    })
    const request = fc.record({
      path: fc.constantFrom('/v1/pets', '/v1/pets?status=sold', '/v1/pets?status=available', '/v1/pets/1', 'POST'),
      key: fc.constantFrom(...keys),
      agent: fc.constantFrom(...agents),
      name: fc.constantFrom(...names),
    })
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(rule, bodyRule), { minLength: 1, maxLength: 5 }),
        fc.array(request, { minLength: 1, maxLength: 15 }),
        async (rules, requests) => {
          const run = async (app: { request(path: string, init: RequestInit): Response | Promise<Response> }) => {
            // A rule on getPet's query is refused (400), alike on both.
            const statuses: number[] = []
            for (const r of rules) {
              const res = await app.request('/__admin/faults', {
                method: 'POST',
                headers: { 'Content-Type': 'application/json' },
                body: JSON.stringify(r),
              })
              statuses.push(res.status)
            }
            for (const r of requests) {
              const headers = {
                ...bearer(r.key),
                'User-Agent': r.agent,
                'Content-Type': 'application/json',
              }
              const res =
                r.path === 'POST'
                  ? await app.request('/v1/pets', {
                      method: 'POST',
                      headers,
                      body: JSON.stringify({ name: r.name, categoryId: 1 }),
                    })
                  : await app.request(r.path, { headers })
              statuses.push(res.status)
            }
            const faults = await (await app.request('/__admin/faults', {})).json()
            return { statuses, faults }
          }
          const expected = await run(createApp({ seed: 3 }))
          // A prefix of its own per run: a fresh Redis world.
          expect(await run(prepareMock({ seed: 3 }, await redisFactory()).build())).toEqual(expected)
        },
      ),
      { numRuns: 25 },
    )
  })
})

describe('the Redis store’s event streams', () => {
  // Answered now: after the subscription below, as a request recorded from then on is.
  const entry = (path: string) => journalRecord(0, { time: Date.now(), url: `http://localhost${path}`, path })

  it('a listener hears of every entry recorded on another replica from its subscription on, each once, in order, even while its connection opens', async () => {
    const prefix = `events${++prefixes}`
    const start: StartState = {
      world: startWorld({ pets: [], faults: [], latency: undefined, seed: 1 }),
      maxPets: 10,
      journalSize: 10,
    }
    // Two stores with connections of their own: two replicas.
    const [a, b] = [(await redisFactory(prefix))(start, 5), (await redisFactory(prefix))(start, 5)]
    const onA = await a.session('watched')
    const onB = await b.session('watched')
    const heard: number[] = []
    let ended = 0
    // Subscribed and, in the same tick, three entries recorded through the other replica's connection.
    // Each wait below is polled, bounded at 10 s against a hang (a busy machine delivers late), never timed.
    onB.subscribe({ record: (r) => heard.push(r.id), end: () => ended++ })
    await Promise.all([onA.record(entry('/1')), onA.record(entry('/2')), onA.record(entry('/3'))])
    for (let i = 0; i < 500 && heard.length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 20))
    await onA.record(entry('/4'))
    for (let i = 0; i < 500 && heard.length < 4; i++) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(heard).toEqual([1, 2, 3, 4])
    // Dropping the session on one replica ends the streams on the other.
    expect(await a.dropSession('watched')).toBe(true)
    for (let i = 0; i < 500 && ended === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(ended).toBe(1)
  })
})

describe('a store made while Redis is away', () => {
  it('answers 503 store_unavailable, and starts by itself once Redis is back', async () => {
    const factory = await redisFactory(`away${++prefixes}`)
    await redis.stop('SIGKILL')
    const start: StartState = {
      world: startWorld({ pets: [], faults: [], latency: undefined, seed: 1 }),
      maxPets: 10,
      journalSize: 10,
    }
    const store = factory(start, 5)
    await expect(store.ready).rejects.toMatchObject({ status: 503, code: 'store_unavailable' })
    await expect(store.session('x')).rejects.toMatchObject({ status: 503, code: 'store_unavailable' })
    await expect(store.stats()).rejects.toMatchObject({ status: 503, code: 'store_unavailable' })
    await redis.restart()
    let stats: { pets: number; sessions: number } | undefined
    for (let attempt = 0; attempt < 50 && stats === undefined; attempt++) {
      stats = await store.stats().catch(() => undefined)
      if (stats === undefined) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(stats).toEqual({ pets: 0, sessions: 1, dropped: 0 })
    const session = await store.session('x')
    expect(await session.summary()).toEqual({ name: 'x', pets: 0, faults: 0, requests: 0 })
  })
})

/** A mock on the in-memory store (no factory), or on the Redis one. */
const mockOn = (options: AppOptions, factory: StoreFactory<SessionStore> | undefined) =>
  factory ? prepareMock(options, factory) : prepareMock(options)

const quota = { sessions: 2, memoryMiB: 1, journalMiB: 1, streams: 2, held: 3 }
const tenants: Tenant[] = [
  { name: 'team-a', sessions: ['team-a-*'], apiKeys: ['key-a-1'], adminTokens: [], quota },
  { name: 'team-b', sessions: ['team-b-*'], apiKeys: ['key-b-1'], adminTokens: [], quota },
]

const rule = fc.record(
  {
    operation: fc.constantFrom('listPets', 'getPet'),
    fault: fc.constantFrom('hang', 'drip', 'connection_reset', undefined),
    times: fc.integer({ min: 1, max: 3 }),
    probability: fc.constantFrom(0.5, 1),
  },
  { requiredKeys: ['operation', 'times'] },
)

describe('a rule that would hold a request its tenant may not hold: answered uncounted, on both stores', () => {
  it('memory and Redis answer the same rules and counts for any rules and any mayHold (property)', async () => {
    const redisStore = await redisFactory()
    let run = 0
    await fc.assert(
      fc.asyncProperty(
        fc.array(rule, { minLength: 1, maxLength: 4 }),
        fc.array(fc.tuple(fc.constantFrom('listPets', 'getPet'), fc.boolean()), { minLength: 1, maxLength: 12 }),
        async (rules, requests) => {
          const inputs = rules.map((r) => (r.fault === undefined ? { ...r, fault: undefined, status: 503 } : r))
          const faults = inputs.map(({ fault, ...rest }) => (fault === undefined ? rest : { ...rest, fault }))
          const name = `p${++run}`
          const answers = []
          for (const factory of [undefined, redisStore]) {
            const mock = mockOn({ seed: 3, faults: faults as FaultRuleInput[] }, factory)
            const session = await mock.sessions.session(name)
            const got = []
            for (const [operation, mayHold] of requests) {
              const taken = await session.takeFault({ operation }, mayHold)
              got.push([taken?.id, taken?.remaining])
            }
            got.push((await session.listFaults()).map((r) => [r.id, r.remaining]))
            answers.push(got)
          }
          expect(answers[1]).toEqual(answers[0])
        },
      ),
      { numRuns: 25 },
    )
  })

  it('a hang or drip rule taken with mayHold false keeps its count; any other rule is counted', async () => {
    for (const factory of [undefined, await redisFactory()]) {
      const mock = mockOn(
        {
          faults: [
            { operation: 'listPets', fault: 'hang', times: 2 },
            { operation: 'getPet', fault: 'drip', times: 2 },
            { operation: 'createPet', status: 503, times: 2 },
          ],
        },
        factory,
      )
      const session = await mock.sessions.session('s')
      for (const operation of ['listPets', 'getPet', 'createPet']) {
        const taken = await session.takeFault({ operation }, false)
        expect(taken?.operation).toBe(operation)
      }
      expect((await session.listFaults()).map((r) => r.remaining)).toEqual([2, 2, 1])
    }
  })
})

describe('tenants on the Redis store: held requests and streams per replica', () => {
  const root = bearer('root-1')
  it('team A: 3 hangs held, the 4th 429 with its rule uncounted; team B holds meanwhile', async () => {
    const mock = prepareMock({ tenants, adminToken: 'root-1' }, await redisFactory())
    const app = mock.build()
    for (const session of ['team-a-1', 'team-b-1']) {
      const res = await app.request('/__admin/faults', {
        method: 'POST',
        headers: { ...root, 'Content-Type': 'application/json', 'X-Mock-Session': session },
        body: JSON.stringify({ operation: 'listPets', fault: 'hang', times: 10 }),
      })
      expect(res.status).toBe(201)
    }
    const controllers: AbortController[] = []
    const hold = (session: string, key: string) => {
      const controller = new AbortController()
      controllers.push(controller)
      return Promise.resolve(
        app.request(`/sessions/${session}/v1/pets`, { headers: bearer(key), signal: controller.signal }),
      ).catch((error: unknown) => error)
    }
    const a = Array.from({ length: 3 }, () => hold('team-a-1', 'key-a-1'))
    const refused = (await hold('team-a-1', 'key-a-1')) as Response
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('1')
    expect(await refused.json()).toEqual({
      code: 'quota_exceeded',
      status: 429,
      message:
        'Tenant team-a holds 3 requests (hang, drip, journal waits), its quota (quota.held); this request was not held. Retry when one ends, or end one by closing its connection.',
    })
    const b = Array.from({ length: 3 }, () => hold('team-b-1', 'key-b-1'))
    await expect.poll(() => mock.held.usedTotal).toBe(6)
    const list = await app.request('/__admin/faults', { headers: { ...root, 'X-Mock-Session': 'team-a-1' } })
    expect(((await list.json()) as { faults: { remaining: number }[] }).faults[0]!.remaining).toBe(7)
    for (const controller of controllers) controller.abort()
    await Promise.all([...a, ...b])
    expect(mock.held.usedTotal).toBe(0)
  })

  it('team A at quota.streams: 429 quota_exceeded; team B and the default session open theirs', async () => {
    const app = prepareMock({ tenants, adminToken: 'root-1' }, await redisFactory()).build()
    // The session made first: a stream, as every read, creates none.
    const open = async (session: string) => {
      if (session !== 'default') await app.request(`/__admin/sessions/${session}`, { method: 'POST', headers: root })
      return app.request('/__admin/requests/stream', { headers: { ...root, 'X-Mock-Session': session } })
    }
    const a = [await open('team-a-1'), await open('team-a-2')]
    const refused = await open('team-a-1')
    expect(refused.status).toBe(429)
    expect(await refused.json()).toEqual({
      code: 'quota_exceeded',
      status: 429,
      message: 'Tenant team-a has 2 open event streams, its quota (quota.streams); close one first.',
    })
    const others = [await open('team-b-1'), await open('team-b-1'), await open('default')]
    expect([...a, ...others].map((res) => res.status)).toEqual([200, 200, 200, 200, 200])
    await Promise.all([...a, ...others].map((res) => res.body!.cancel()))
  })
})
