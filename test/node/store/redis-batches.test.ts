import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { prepareMock } from '../../../src/core/app.js'
import { defineScripts } from '../../../src/node/store/redis/commands.js'
import { openRedisStore, type RedisSessionStore } from '../../../src/node/store/redis/redis-store.js'
import { startWorld } from '../../../src/core/sessions/world.js'
import { type RedisServer, startRedis } from '../../helpers/redis-server.js'
import { bearer } from '../../helpers/auth.js'
import { maxEntriesPerCall } from '../../../src/node/store/redis/turn-groups.js'
import { freezeAt, json } from '../../helpers/timeline-scenario.js'

let redis: RedisServer
const opened: RedisSessionStore[] = []
const clients: Redis[] = []

beforeAll(async () => {
  redis = await startRedis()
}, 60_000)

afterAll(async () => {
  for (const store of opened) store.close()
  for (const client of clients) client.disconnect()
  await redis?.dispose()
})

const client = () => {
  const made = new Redis(redis.url)
  clients.push(made)
  return made
}

const appOn = async (prefix: string, options: Parameters<typeof prepareMock>[0] = {}) => {
  const factory = await openRedisStore({ url: redis.url, prefix })
  return prepareMock({ seed: 3, ...options }, (start, max) => {
    const store = factory(start, max)
    opened.push(store)
    return store
  }).build()
}

/** The commands the store sends while `work` runs: its scripts (INFO commandstats counts what they call apart). */
const commandsDuring = async (work: () => unknown): Promise<number> => {
  const stats = client()
  const calls = async () =>
    [...(await stats.info('commandstats')).matchAll(/^cmdstat_(evalsha|eval|fcall):calls=(\d+)/gm)]
      .map((m) => Number(m[2]))
      .reduce((a, b) => a + b, 0)
  const before = await calls()
  await work()
  return (await calls()) - before
}

/** How many times Redis ran `command` while `work` ran (INFO commandstats: a script's own calls counted too). */
const callsDuring = async (command: string, work: () => unknown): Promise<number> => {
  const stats = client()
  const calls = async () =>
    Number(new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(await stats.info('commandstats'))?.[1] ?? 0)
  const before = await calls()
  await work()
  return (await calls()) - before
}

/** The commands Redis ran inside scripts while `work` ran (MONITOR), each lowercased, with its arguments. */
const scriptCommandsDuring = async (work: () => Promise<unknown>): Promise<string[][]> => {
  const monitor = await client().monitor()
  const seen: string[][] = []
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source.includes('lua')) seen.push(args.map((arg, k) => (k === 0 ? arg.toLowerCase() : arg)))
  })
  // MONITOR sees what is sent after it started, and shows it a moment after it ran.
  await new Promise((resolve) => setTimeout(resolve, 100))
  await work()
  await new Promise((resolve) => setTimeout(resolve, 100))
  monitor.disconnect()
  return seen
}

const auth = bearer()

describe('the Redis store sends the script calls of one turn as one command', () => {
  it('runs the calls of a batch in order, each with its own answer, and a failing call fails alone', async () => {
    const run = defineScripts(client())
    const base = 'unit:s:default:'
    await client().zadd(`${base}i`, 1, '{"id":1,"name":"a","categoryId":1}', 2, '{"id":2,"name":"b","categoryId":1}')
    const answers = await Promise.allSettled([
      run('psGetPet', base, 2),
      run('psGetPet', base, 'not a number'),
      run('psListPets', base, 'i', 5),
      run('psGetPet', base, 9),
    ])
    expect(answers[0]).toEqual({ status: 'fulfilled', value: '{"id":2,"name":"b","categoryId":1}' })
    expect(answers[1]!.status).toBe('rejected')
    expect(String((answers[1] as PromiseRejectedResult).reason)).toMatch(/float/)
    expect(answers[2]).toEqual({
      status: 'fulfilled',
      value: '[{"id":1,"name":"a","categoryId":1},{"id":2,"name":"b","categoryId":1}]',
    })
    expect(answers[3]).toEqual({ status: 'fulfilled', value: null })
  })

  it('runs as a Redis function (FCALL), and as the script where Redis refuses a function before it runs', async () => {
    const admin = client()
    const run = defineScripts(client())
    const base = 'fn:s:default:'
    const pet = '{"id":1,"name":"a","categoryId":1}'
    await admin.zadd(`${base}i`, 1, pet)
    await admin.hset(`${base}m`, 'nextId', '2')
    const calls = async () => {
      const stats = await admin.info('commandstats')
      const count = (name: string) => Number(new RegExp(`^cmdstat_${name}:calls=(\\d+)`, 'm').exec(stats)?.[1] ?? 0)
      return { fcall: count('fcall'), scripts: count('evalsha') + count('eval') }
    }
    const before = await calls()
    expect(await run('psGetPet', base, 1)).toBe(pet)
    expect(await calls()).toEqual({ fcall: before.fcall + 1, scripts: before.scripts })
    // No replica while one is required: Redis refuses a function that may write before it runs (NOREPLICAS);
    // the batch goes again as the script, whose read answers and whose write alone is refused.
    await admin.config('SET', 'min-replicas-to-write', '1')
    try {
      const [read, write] = await Promise.allSettled([
        run('psGetPet', base, 1),
        run('psCreatePet', base, 10, '"name":"b","categoryId":1}', '', 'fn', 100, -1),
      ])
      expect(read).toEqual({ status: 'fulfilled', value: pet })
      expect(write.status).toBe('rejected')
      expect(String((write as PromiseRejectedResult).reason)).toMatch(/NOREPLICAS/)
    } finally {
      await admin.config('SET', 'min-replicas-to-write', '0')
    }
    expect(await run('psCreatePet', base, 10, '"name":"b","categoryId":1}', '', 'fn', 100, -1)).toBe('2')
  })

  it('40 requests at once take far fewer commands than their 120 script calls, with every answer right', async () => {
    const app = await appOn('burst')
    await app.request('/v1/pets/1', { headers: auth })
    let answers: Response[] = []
    const commands = await commandsDuring(async () => {
      answers = await Promise.all(Array.from({ length: 40 }, () => app.request('/v1/pets/1', { headers: auth })))
    })
    expect(answers.map((res) => res.status)).toEqual(Array(40).fill(200))
    const bodies = await Promise.all(answers.map((res) => res.json()))
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1)
    // Each request: the selection with its read, the deprecation count, the journal entry.
    expect(commands).toBeLessThanOrEqual(12)
  })

  it.each([
    ['GET /v1/pets/{id}', '/v1/pets/1', 2],
    ['GET /v1/pets?limit=20', '/v1/pets?limit=20', 2],
    ['GET /v1/pets?status=sold&limit=100', '/v1/pets?status=sold&limit=100', 2],
  ])(
    '%s alone is two round trips: the selection with the read named ahead, then the journal entry',
    async (_name, path, trips) => {
      const app = await appOn(`trips${trips}${path.length}`)
      await app.request(path, { headers: auth })
      const commands = await commandsDuring(() =>
        Promise.resolve(app.request(path, { headers: auth })).then((res) => res.arrayBuffer()),
      )
      expect(commands).toBe(trips)
    },
  )

  it('in a session with a timeline, the rules and the timelines are one call: a quiet phase costs one round trip, a phase that targets the request two', async () => {
    const app = await appOn('trips-timeline')
    const session = { 'X-Mock-Session': 'incident' }
    await freezeAt(app.request, 'incident', 0)
    const timeline = { phases: [{ for: '10s', rule: { operation: 'getPet', status: 503 } }, { for: '10s' }] }
    expect((await app.request('/__admin/timelines/t', json('PUT', timeline, 'incident'))).status).toBe(201)
    const get = (status: number) => async () => {
      const res = await app.request('/v1/pets/1', { headers: { ...auth, ...session } })
      expect(res.status).toBe(status)
      await res.arrayBuffer()
    }
    await get(503)()
    // The selection, the rules with the timelines, the phase's count, the journal entry.
    expect(await commandsDuring(get(503))).toBe(4)
    await freezeAt(app.request, 'incident', 15)
    await get(200)()
    // The selection with its read, the rules with the timelines, the journal entry.
    expect(await commandsDuring(get(200))).toBe(3)
    const listed = await app.request('/__admin/timelines/t', { headers: session })
    expect(((await listed.json()) as { current: { phase: number } }).current.phase).toBe(1)
  })

  it('POST /v1/pets alone is three: the selection, the create, the journal entry', async () => {
    const app = await appOn('trips-create')
    const post = () =>
      app.request('/v1/pets', {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: '{"name":"Rex","categoryId":1}',
      })
    await post()
    expect(await commandsDuring(post)).toBe(3)
  })
})

describe('reads named ahead are hints: the handler is answered from one only when it asks for exactly that', () => {
  it('a guess the validated input differs from is read again; a clamped limit and a bad id are answered as in memory', async () => {
    const factory = await openRedisStore({ url: redis.url, prefix: 'ahead-port' })
    const pets = [1, 2, 3, 4, 5, 6].map((id) => ({ id, name: `p${id}`, categoryId: 1 }))
    const sessions = factory(
      { world: startWorld({ pets, faults: [], latency: undefined, seed: 1 }), maxPets: 100, journalSize: 10 },
      10,
    )
    opened.push(sessions)
    const five = await sessions.session('default', { listPets: { limit: 5, status: undefined } })
    expect((await five.listPets(3)).map((p) => p.id)).toEqual([1, 2, 3])
    const petTwo = await sessions.session('default', { getPet: 2 })
    expect((await petTwo.getPet(4))?.id).toBe(4)
    const app = await appOn('ahead-clamp', { silences: { limitRange: 'clamp' } })
    const all = (await (await app.request('/v1/pets?limit=100', { headers: auth })).json()) as { id: number }[]
    const big = await app.request('/v1/pets?limit=100000', { headers: auth })
    expect(await big.json()).toEqual(all.slice(0, 100))
    const bad = await app.request('/v1/pets/abc', { headers: auth })
    expect(bad.status).toBe(400)
  })

  it('a pet created between the selection and the read of another request is not missed by later reads', async () => {
    const app = await appOn('ahead-fresh')
    const created = await app.request('/v1/pets', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: '{"name":"Fresh","categoryId":2}',
    })
    const { id } = (await created.json()) as { id: number }
    const got = await app.request(`/v1/pets/${id}`, { headers: auth })
    expect(got.status).toBe(200)
    expect(await got.json()).toEqual({ id, name: 'Fresh', categoryId: 2 })
  })
})

describe('a journal entry is published only on a channel someone listens on', () => {
  const publishesDuring = (work: () => unknown) => callsDuring('publish', work)
  const reads = (app: Awaited<ReturnType<typeof appOn>>, n: number) => async () => {
    for (let i = 0; i < n; i++) await (await app.request('/v1/pets/1', { headers: auth })).arrayBuffer()
  }

  it('no stream of the session: 5 requests journaled, none published; then a subscriber hears each entry with its id', async () => {
    const app = await appOn('pub-quiet')
    await reads(app, 1)()
    expect(await publishesDuring(reads(app, 5))).toBe(0)

    const listener = client()
    const heard: string[] = []
    listener.on('message', (_channel: string, text: string) => heard.push(text))
    await listener.subscribe('pub-quiet:ev:default')
    expect(await publishesDuring(reads(app, 3))).toBe(3)
    await expect.poll(() => heard.length).toBe(3)
    const ids = heard.map((text) => (JSON.parse(text.split('\u0000')[0]!) as { id: number }).id)
    // The 1 + 5 before were kept all the same: the ids go on from them.
    expect(ids).toEqual([7, 8, 9])
    const kept = await client().lrange('pub-quiet:s:default:j', 0, -1)
    expect(kept.map((stored) => /^\d+,\{"id":(\d+),/.exec(stored)?.[1])).toEqual([
      '9',
      '8',
      '7',
      '6',
      '5',
      '4',
      '3',
      '2',
      '1',
    ])
    await listener.unsubscribe('pub-quiet:ev:default')
    expect(await publishesDuring(reads(app, 2))).toBe(0)
  })
})

describe('calls of a deprecated operation in one turn leave added up, one count per client and session', () => {
  it('40 getPet calls at once from two clients: far fewer writes than 40, the report counts 20 and 20, each client warned of once', async () => {
    const warnings: string[] = []
    const logger = { request() {}, error() {}, warn: (m: string) => warnings.push(m) }
    const app = await appOn('noted', { logger })
    const shop = { ...auth, 'User-Agent': 'shop-web/2.1' }
    const batch = { ...auth, 'User-Agent': 'batch/1.0' }
    let answers: Response[] = []
    const writes = await callsDuring('hset', async () => {
      answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => app.request('/v1/pets/1', { headers: i % 2 === 0 ? shop : batch })),
      )
    })
    expect(answers.map((res) => res.status)).toEqual(Array(40).fill(200))
    // Counted one by one, each call was one write of the session's hash.
    expect(writes).toBeLessThanOrEqual(8)
    const report = (await (await app.request('/__admin/deprecations')).json()) as {
      deprecations: { operation: string; calls: number; clients: { userAgent: string; calls: number }[] }[]
    }
    const getPet = report.deprecations.find((d) => d.operation === 'getPet')!
    expect(getPet.calls).toBe(40)
    expect(getPet.clients.map((c) => [c.userAgent, c.calls]).sort()).toEqual([
      ['batch/1.0', 20],
      ['shop-web/2.1', 20],
    ])
    await expect.poll(() => warnings.filter((w) => w.startsWith('getPet is deprecated')).length).toBe(2)
    expect(warnings.filter((w) => w.includes('shop-web/2.1'))).toHaveLength(1)
  })
})

describe('the selections of one turn are one call per session', () => {
  // Each selection on its own reads Redis's clock once.
  const clockReadsDuring = (work: () => unknown) => callsDuring('time', work)

  it('40 reads at once of two pets and a page: every answer its own, far fewer selections than 40', async () => {
    const app = await appOn('selected')
    const paths = ['/v1/pets/1', '/v1/pets/2', '/v1/pets?limit=3']
    const alone = await Promise.all(paths.map(async (path) => (await app.request(path, { headers: auth })).json()))
    let answers: Response[] = []
    const reads = await clockReadsDuring(async () => {
      answers = await Promise.all(Array.from({ length: 40 }, (_, i) => app.request(paths[i % 3]!, { headers: auth })))
    })
    expect(answers.map((res) => res.status)).toEqual(Array(40).fill(200))
    expect(await Promise.all(answers.map((res) => res.json()))).toEqual(
      Array.from({ length: 40 }, (_, i) => alone[i % 3]),
    )
    expect(reads).toBeLessThanOrEqual(8)
  })

  it("the turn's first read is not read again for the others that name it: one page, one pet, each answer as alone", async () => {
    const P = 'page-once'
    const app = await appOn(P)
    expect((await app.request('/v1/pets/1', { headers: auth })).status).toBe(200)
    const run = defineScripts(client())
    // psSessions' ARGV: psSession's first seven (prefix, name, template, most sessions, TTL, mode, tenant), then each read.
    const common = [P, 'default', `${P}:t:none:`, 100, 0, 'use', '']
    const page = ['list', 'i', 20]
    const pet = ['pet', 1]
    const alone = {
      page: await run('psSession', ...common, ...page),
      pet: await run('psSession', ...common, ...pet),
    }
    let answers: unknown
    const inScripts = await scriptCommandsDuring(async () => {
      const reads = [page, page, pet, page, pet].flatMap((read) => [read.length, ...read])
      answers = await run('psSessions', ...common, ...reads)
    })
    expect(answers).toEqual([alone.page, alone.page, alone.pet, alone.page, alone.pet])
    expect(String(alone.page)).toContain('\u0000[{"id":1,')
    const index = `${P}:s:default:i`
    expect(inScripts.filter(([command, key]) => command === 'zrange' && key === index)).toEqual([
      ['zrange', index, '0', '19'],
      ['zrange', index, '1', '1', 'BYSCORE'],
    ])
  })

  it('10 requests at once in a session none made yet: it is made once, each answered in it, and it stays', async () => {
    const app = await appOn('made-at-once')
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => app.request('/sessions/burst/v1/pets/1', { headers: auth })),
    )
    expect(answers.map((res) => res.status)).toEqual(Array(10).fill(200))
    const sessions = (await (await app.request('/__admin/sessions')).json()) as { sessions: { name: string }[] }
    expect(sessions.sessions.filter((s) => s.name === 'burst')).toHaveLength(1)
    // Used by others than its maker: a refusal of the first would not drop it (psDiscard), as one by one.
    expect(await client().hmget('made-at-once:s:burst:m', 'nw', 'ns')).toEqual([null, null])
    const journal = (await (
      await app.request('/__admin/requests', { headers: { 'X-Mock-Session': 'burst' } })
    ).json()) as {
      requests: unknown[]
    }
    expect(journal.requests).toHaveLength(10)
  })
})

describe("a turn's journal entries of one session are kept in one call", () => {
  const journal = async (app: Awaited<ReturnType<typeof appOn>>) =>
    (await (await app.request('/__admin/requests?limit=1000')).json()) as {
      requests: { id: number; path: string }[]
      dropped: number
    }

  it('40 requests at once: ids 2 to 41, each its own, far fewer id counts than 40, the ring and the charges as one by one', async () => {
    const app = await appOn('recorded', { journalSize: 5 })
    await app.request('/v1/pets/1', { headers: auth })
    let answers: Response[] = []
    const counts = await callsDuring('incrby', async () => {
      answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => app.request(`/v1/pets/${(i % 12) + 1}`, { headers: auth })),
      )
    })
    expect(answers.map((res) => res.status)).toEqual(Array(40).fill(200))
    // Kept one by one, each entry took its id alone (INCR), and each drop was counted alone (INCRBY).
    expect(counts).toBeLessThanOrEqual(16)
    const { requests, dropped } = await journal(app)
    // The ring keeps the 5 newest, newest first, with consecutive ids; the other 36 were dropped and counted.
    expect(requests.map((r) => r.id)).toEqual([41, 40, 39, 38, 37])
    expect(dropped).toBe(36)
    // What the journal's share is charged is what the ring holds: each kept entry's cost, no more.
    const kept = await client().lrange('recorded:s:default:j', 0, -1)
    const costs = kept.map((stored) => Number(/^(\d+),/.exec(stored)![1]))
    expect(Number(await client().hget('recorded:mem', 'journal'))).toBe(costs.reduce((a, b) => a + b, 0))
    const order = await client().zrange('recorded:jz', '0', '-1')
    expect(order).toEqual(costs.map((cost, k) => `${cost},${41 - k},default`).reverse())
  })
})

describe("a turn's journal entries beyond one call's bound", () => {
  it(`4600 requests at once (more than nine calls' bound) in one session: every one answered and recorded, with consecutive ids`, async () => {
    const app = await appOn('recorded-many', { journalSize: 5000 })
    const n = 4600
    expect(n).toBeGreaterThan(maxEntriesPerCall * 9)
    const answers = await Promise.all(Array.from({ length: n }, () => app.request('/v1/pets/1', { headers: auth })))
    expect(answers.filter((res) => res.status !== 200)).toEqual([])
    const { requests } = (await (await app.request(`/__admin/requests?limit=${n}`)).json()) as {
      requests: { id: number }[]
    }
    expect(requests.map((r) => r.id).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 1))
  })
})

describe("a create reads its session's hash once and writes it once", () => {
  /** A default session at prefix P whose next id is 7, its pets charged 100 bytes (so is its pool). */
  const sessionAt = async (P: string) => {
    const admin = client()
    const base = `${P}:s:default:`
    await admin.hset(`${base}m`, 'nextId', '7', 'bp', '100')
    await admin.hset(`${P}:mem`, 'pets', '100')
    return { admin, base, run: defineScripts(client()) }
  }

  it("one HMGET of the session's hash (the budget's charges and the next id), the pool's counts when the budget is on, one HSET", async () => {
    const P = 'create-reads'
    const { admin, base, run } = await sessionAt(P)
    const commands = await scriptCommandsDuring(async () => {
      expect(await run('psCreatePet', base, 1000, '"name":"Rex","categoryId":1}', 'available', P, 40, 1_000_000)).toBe(
        '7',
      )
    })

    const reads = commands.filter(([command]) => command === 'hget' || command === 'hmget')
    expect(reads).toEqual([
      ['hmget', `${base}m`, 'bp', 'br', 'nextId'],
      ['hmget', `${P}:mem`, 'pets', 'rules', 'sessions', 'deprecations', 'rateLimits'],
    ])
    // And writes it once: the charges and the next id in one HSET.
    expect(commands.filter(([command, key]) => command === 'hset' && key === `${base}m`)).toEqual([
      ['hset', `${base}m`, 'bp', '140', 'br', '0', 'nextId', '8'],
    ])
    // What it wrote is what it wrote before: the pet in both indexes, the next id, the charges.
    expect(await admin.zrange(`${base}i`, 0, '-1')).toEqual(['{"id":7,"name":"Rex","categoryId":1}'])
    expect(await admin.zrange(`${base}i:available`, 0, '-1')).toEqual(['{"id":7,"name":"Rex","categoryId":1}'])
    expect(await admin.hmget(`${base}m`, 'nextId', 'bp', 'br')).toEqual(['8', '140', '0'])
    expect(await admin.hget(`${P}:mem`, 'pets')).toBe('140')
  })

  it('refused by the budget, changes nothing, and answers the refusal', async () => {
    const P = 'create-refused'
    const { admin, base, run } = await sessionAt(P)
    expect(await run('psCreatePet', base, 1000, '"name":"Rex","categoryId":1}', '', P, 40, 120)).toBe(
      '!pets,40,20,100,0,0,0,0',
    )
    expect(await admin.exists(`${base}i`)).toBe(0)
    expect(await admin.hmget(`${base}m`, 'nextId', 'bp')).toEqual(['7', '100'])
    expect(await admin.hget(`${P}:mem`, 'pets')).toBe('100')
  })
})
