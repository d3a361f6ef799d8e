import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppOptions, prepareMock, type StoreFactory } from '../../../src/core/app.js'
import type { SessionStore } from '../../../src/core/sessions/port.js'
import type { FaultRuleInput } from '../../../src/core/faults/rule-check.js'
import type { Tenant } from '../../../src/core/tenants/tenant.js'
import { openRedisStore, type RedisSessionStore } from '../../../src/node/store/redis/redis-store.js'
import { type RedisServer, startRedis } from '../../helpers/redis-server.js'
import { bearer } from '../../helpers/auth.js'

let redis: RedisServer
const opened: RedisSessionStore[] = []
let prefixes = 0

beforeAll(async () => {
  redis = await startRedis()
}, 60_000)

afterAll(async () => {
  for (const store of opened) store.close()
  await redis?.dispose()
})

const redisFactory = async (): Promise<StoreFactory<SessionStore>> => {
  const factory = await openRedisStore({ url: redis.url, prefix: `holds${++prefixes}` })
  return (start, max) => {
    const store = factory(start, max)
    opened.push(store)
    return store
  }
}

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
    const open = (session: string) =>
      app.request('/__admin/requests/stream', { headers: { ...root, 'X-Mock-Session': session } })
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
