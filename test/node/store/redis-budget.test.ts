import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppOptions, createApp, prepareMock } from '../../../src/core/app.js'
import { deprecationClientBytes, rateLimitKeyBytes } from '../../../src/core/budget/costs.js'
import { openRedisStore, type RedisSessionStore } from '../../../src/node/store/redis/redis-store.js'
import type { StartState } from '../../../src/core/sessions/memory-store.js'
import { adminJson, inSession } from '../../helpers/admin.js'
import { type RedisServer, startRedis } from '../../helpers/redis-server.js'
import { bearer } from '../../helpers/auth.js'

// Issue 29 on Redis: the journal's share, rate-limit windows and deprecation records are charged in the
// scripts as the memory store charges them, and a write of many pets goes in slices that never show half.

let redis: RedisServer
let client: Redis
const opened: RedisSessionStore[] = []
let prefixes = 0

beforeAll(async () => {
  redis = await startRedis()
  client = new Redis(redis.url)
}, 60_000)

afterAll(async () => {
  for (const store of opened) store.close()
  client?.disconnect()
  await redis?.dispose()
})

type App = ReturnType<typeof createApp>

/** `count` apps (replicas) on one Redis prefix of their own. */
const replicas = async (options: AppOptions, count = 2): Promise<{ apps: App[]; prefix: string }> => {
  const prefix = `b${++prefixes}`
  const apps: App[] = []
  for (let i = 0; i < count; i++) {
    const factory = await openRedisStore({ url: redis.url, prefix })
    const app = prepareMock(options, (start: StartState, max: number) => {
      const store = factory(start, max)
      opened.push(store)
      return store
    }).build()
    apps.push(app)
  }
  return { apps, prefix }
}

interface Memory {
  usedBytes: number
  state: { shareBytes: number; usedBytes: number; parts: Record<string, number> }
  journal: { shareBytes: number | null; usedBytes: number; entries: number }
}
const memoryOf = async (app: App): Promise<Memory> =>
  ((await (await app.request('/__admin/health')).json()) as { memory: Memory }).memory

// What clients made the store hold (the memory store also counts its default session's own 16 KiB; Redis does not).
const charged = ({ state: { parts } }: Memory) => ({ ...parts, sessions: undefined })

const journalOf = async (app: App, session: string) =>
  (await (await app.request('/__admin/requests', { headers: inSession(session) })).json()) as {
    requests: { id: number }[]
    dropped: number
  }

const api = (session: string, extra: Record<string, string> = {}) => inSession(session, { ...bearer(), ...extra })

describe("the journal's share on Redis (--max-memory 1: 256 KiB for the journal)", () => {
  it("keeps every replica's entries of every session within it, dropping the oldest of any session, counted in dropped", async () => {
    const { apps } = await replicas({ maxMemory: 1 })
    const big = 'h'.repeat(900)
    const sessions = Array.from({ length: 10 }, (_, i) => `j${i}`)
    for (let i = 0; i < 300; i++) {
      const res = await apps[i % 2]!.request('/v1/pets?limit=1', {
        headers: api(sessions[Math.floor(i / 30)]!, { 'X-Big': big, 'X-Other': big }),
      })
      expect(res.status).toBe(200)
    }
    const memory = await memoryOf(apps[0]!)
    expect(await memoryOf(apps[1]!)).toEqual(memory)
    expect(memory.journal.shareBytes).toBe(256 * 1024)
    expect(memory.journal.usedBytes).toBeLessThanOrEqual(256 * 1024)
    // Nearly full: only what the next entry needs is left free.
    expect(memory.journal.usedBytes).toBeGreaterThan(256 * 1024 - 8 * 1024)
    expect(memory.journal.entries).toBeLessThan(300)
    // The sessions were used one after another: the oldest lost every entry, the newest kept all of its.
    const journals = await Promise.all(sessions.map((name) => journalOf(apps[1]!, name)))
    expect(journals[0]!.requests).toEqual([])
    expect(journals[9]!.requests).toHaveLength(30)
    let kept = 0
    for (const [i, journal] of journals.entries()) {
      // Every request either kept or counted dropped; a session keeps its newest (ids 30 down to …).
      expect(journal.requests.length + journal.dropped).toBe(30)
      expect(journal.requests.map((entry) => entry.id)).toEqual(
        Array.from({ length: journal.requests.length }, (_, k) => 30 - k),
      )
      if (i > 0 && journals[i - 1]!.requests.length > 0) expect(journal.dropped).toBe(0)
      kept += journal.requests.length
    }
    expect(memory.journal.entries).toBe(kept)
    // Clearing, resetting and dropping sessions give their entries' bytes back, to the byte.
    expect((await apps[0]!.request('/__admin/requests', { method: 'DELETE', headers: inSession('j9') })).status).toBe(
      204,
    )
    expect((await apps[1]!.request('/__admin/reset', { method: 'POST', headers: inSession('j8') })).status).toBe(204)
    for (const name of sessions.slice(0, 8)) {
      expect((await apps[0]!.request(`/__admin/sessions/${name}`, { method: 'DELETE' })).status).toBe(204)
    }
    expect((await memoryOf(apps[0]!)).journal).toEqual({ shareBytes: 256 * 1024, usedBytes: 0, entries: 0 })
  })

  it('a full ring (--journal-size) gives back the bytes of the entries it drops', async () => {
    const { apps } = await replicas({ maxMemory: 1, journalSize: 3 })
    for (let i = 0; i < 10; i++) await apps[i % 2]!.request('/v1/pets?limit=1', { headers: api('ring') })
    const journal = await journalOf(apps[0]!, 'ring')
    expect(journal.requests.map((entry) => entry.id)).toEqual([10, 9, 8])
    expect(journal.dropped).toBe(7)
    const { entries, usedBytes } = (await memoryOf(apps[0]!)).journal
    expect(entries).toBe(3)
    // The memory store counts the same three entries the same.
    const memory = createApp({ maxMemory: 1, journalSize: 3 })
    for (let i = 0; i < 10; i++) await memory.request('/v1/pets?limit=1', { headers: api('ring') })
    expect((await memoryOf(memory)).journal).toEqual({ shareBytes: 256 * 1024, usedBytes, entries: 3 })
  })

  it('entries kept under layout 3 (the JSON alone, costs in jc) leave with their costs, and a clear gives them back', async () => {
    const { apps, prefix } = await replicas({ maxMemory: 1, journalSize: 3 })
    const base = `${prefix}:s:old:`
    const asLayout3 = async () => {
      const kept = await client.lrange(`${base}j`, 0, -1)
      await client.del(`${base}j`, `${base}jc`)
      await client.rpush(`${base}j`, ...kept.map((entry) => entry.slice(entry.indexOf(',') + 1)))
      await client.rpush(`${base}jc`, ...kept.map((entry) => entry.slice(0, entry.indexOf(','))))
    }
    const memory = createApp({ maxMemory: 1, journalSize: 3 })
    for (let i = 0; i < 8; i++) {
      if (i === 3) await asLayout3()
      for (const app of [apps[i % 2]!, memory]) await app.request('/v1/pets?limit=1', { headers: api('old') })
    }
    const journal = await journalOf(apps[0]!, 'old')
    expect(journal.requests.map((entry) => entry.id)).toEqual([8, 7, 6])
    expect(journal.dropped).toBe(5)
    expect(await client.exists(`${base}jc`)).toBe(0)
    expect((await memoryOf(apps[0]!)).journal).toEqual((await memoryOf(memory)).journal)
    await asLayout3()
    expect((await apps[1]!.request('/__admin/requests', { method: 'DELETE', headers: inSession('old') })).status).toBe(
      204,
    )
    expect((await memoryOf(apps[0]!)).journal).toMatchObject({ usedBytes: 0, entries: 0 })
  })
})

describe('rate-limit windows and deprecation records on Redis', () => {
  const options: AppOptions = { maxMemory: 1, rateLimit: { limit: 1000, windowSeconds: 60 } }
  const key = (session: number, i: number) => `key-${session}-${String(i).padStart(4, '0')}`
  // Every call from a client of its own: one window and, on the deprecated getPet, one record each.
  const calls = async (app: App, session: number, from: number, to: number): Promise<number[]> => {
    const statuses: number[] = []
    for (let i = from; i < to; i++) {
      const res = await app.request('/v1/pets/1', {
        // The report tells clients apart by User-Agent and the token's first two characters.
        headers: inSession(`r${session}`, { ...bearer(key(session, i)), 'User-Agent': `agent/${i}` }),
      })
      statuses.push(res.status)
      await res.arrayBuffer()
    }
    return statuses
  }

  it('are counted as the memory store counts them, given back on a new policy and a reset, and fill the budget like it', async () => {
    const { apps } = await replicas(options)
    const memory = createApp(options)
    for (const app of [apps[0]!, memory]) expect(new Set(await calls(app, 0, 0, 50))).toEqual(new Set([200]))
    for (const app of [apps[1]!, memory]) await calls(app, 0, 50, 60)
    const redisMemory = await memoryOf(apps[0]!)
    const windows = Array.from({ length: 60 }, (_, i) => rateLimitKeyBytes(key(0, i))).reduce((a, b) => a + b)
    expect(redisMemory.state.parts['rateLimits']).toBe(windows)
    expect(redisMemory.state.parts['deprecations']).toBe(60 * deprecationClientBytes)
    expect(charged(redisMemory)).toEqual(charged(await memoryOf(memory)))
    // A new policy forgets the windows; a reset the report too: their bytes come back.
    for (const app of [apps[1]!, memory]) {
      const policy = await app.request('/__admin/rate-limit', adminJson({ rate: '1000/m' }, 'PUT', 'r0'))
      expect(policy.status).toBe(200)
    }
    expect((await memoryOf(apps[0]!)).state.parts['rateLimits']).toBe(0)
    expect((await memoryOf(apps[0]!)).state.parts['deprecations']).toBe(60 * deprecationClientBytes)
    for (const app of [apps[0]!, memory])
      await app.request('/__admin/reset', { method: 'POST', headers: inSession('r0') })
    expect(charged(await memoryOf(apps[1]!))).toEqual(charged(await memoryOf(memory)))
    expect((await memoryOf(apps[1]!)).state.parts['deprecations']).toBe(0)
  })

  it('count against writes: once clients fill the state share, a create is refused 507 naming them', async () => {
    const { apps } = await replicas(options)
    // A window and a record (about 1,240 bytes) a client: 700 clients fill the 768 KiB share.
    await calls(apps[0]!, 0, 0, 350)
    await calls(apps[1]!, 0, 350, 700)
    const create = await apps[0]!.request('/v1/pets', {
      method: 'POST',
      headers: api('writer', { 'Content-Type': 'application/json' }),
      body: JSON.stringify({ name: 'x'.repeat(1000), categoryId: 1 }),
    })
    expect(create.status).toBe(507)
    const body = (await create.json()) as { code: string; message: string }
    expect(body.code).toBe('insufficient_storage')
    expect(body.message).toMatch(/^The memory budget \(1\.0 MiB, --max-memory\) is full: pets need /)
    expect(body.message).toContain('deprecation records hold the most')
    // Reads are answered: a client met before, and a new one (what it keeps is counted, never refused).
    expect(new Set(await calls(apps[1]!, 0, 0, 5))).toEqual(new Set([200]))
    expect(new Set(await calls(apps[1]!, 3, 0, 5))).toEqual(new Set([200]))
  })
})

describe('event-stream backlogs on Redis', () => {
  it("are the replica's own: charged to its budget, shown by its health, not by the other replica's", async () => {
    const { apps } = await replicas({ maxMemory: 1 })
    const [streaming, other] = apps as [App, App]
    // A reader that reads nothing: what the stream is sent waits in its queue, in this replica's process.
    // The session made first: a stream, as every read, creates none.
    await streaming.request('/__admin/sessions/s', { method: 'POST' })
    const stream = await streaming.request('/__admin/requests/stream', { headers: inSession('s') })
    expect(stream.status).toBe(200)
    await expect
      .poll(async () => {
        await other.request('/v1/pets?limit=1', { headers: api('s') })
        return (await memoryOf(streaming)).state.parts['streams']
      })
      .toBeGreaterThan(0)
    expect((await memoryOf(other)).state.parts['streams']).toBe(0)
    // Closed, it gives its backlog back.
    await stream.body!.cancel()
    expect((await memoryOf(streaming)).state.parts['streams']).toBe(0)
  })
})

/** Every command Redis runs (MONITOR), with the names of the store's script calls in it. */
const monitorCalls = async () => {
  const monitor = await client.duplicate().monitor()
  const seen: string[][] = []
  monitor.on('monitor', (_time: string, args: string[]) => seen.push(args))
  return { seen, stop: () => monitor.disconnect() }
}
const stagingKeys = (prefix: string) => client.keys(`${prefix}:s:*+*`)

describe('a seed of 100,000 pets on Redis', () => {
  it('goes in slices: a read from another replica runs between them and is answered first; nobody sees half of it', async () => {
    const { apps, prefix } = await replicas({ maxMemory: 256 })
    const [seeder, reader] = apps as [App, App]
    const monitor = await monitorCalls()
    const order: string[] = []
    const seeding = Promise.resolve(seeder.request('/__admin/seed', adminJson({ count: 100_000 }, 'POST', 'big'))).then(
      (res) => (order.push('seed'), res.status),
    )
    // Once Redis has taken the first slice, another replica reads another session, and this one.
    await expect.poll(() => monitor.seen.some((args) => args.includes('psStageAdd')), { timeout: 30_000 }).toBe(true)
    const read = await reader.request('/v1/pets/1', { headers: api('other') })
    order.push('read')
    expect(read.status).toBe(200)
    const during = (await (await reader.request('/__admin/state', { headers: inSession('big') })).json()) as {
      pets: unknown[]
    }
    expect(await seeding).toBe(204)
    expect(order).toEqual(['read', 'seed'])
    await expect.poll(() => monitor.seen.some((args) => args.includes('psStageCommit'))).toBe(true)
    monitor.stop()
    const calls = (name: string) => monitor.seen.flatMap((args, i) => (args.includes(name) ? [i] : []))
    // Fifty bounded script runs, and the other replica's read ran between the first and the switch.
    expect(calls('psStageAdd').length).toBe(50)
    expect(calls('psStageCommit')).toHaveLength(1)
    const readAt = monitor.seen.findIndex((args) => args.includes('psSession') && args.includes('other'))
    expect(readAt).toBeGreaterThan(calls('psStageAdd')[0]!)
    expect(readAt).toBeLessThan(calls('psStageCommit')[0]!)
    // Read during the seed: the pets before it, all of them; after it, the seed's.
    expect(during.pets.length).toBeLessThan(100)
    const after = (await (await reader.request('/__admin/state', { headers: inSession('big') })).json()) as {
      pets: { id: number }[]
    }
    expect(after.pets).toHaveLength(100_000)
    expect(after.pets.at(-1)!.id).toBe(100_000)
    expect(await stagingKeys(prefix)).toEqual([])
    // Charged once, as the memory store charges it; the next id continues after the largest.
    const memory = createApp({ maxMemory: 256 })
    await memory.request('/__admin/seed', adminJson({ count: 100_000 }, 'POST', 'big'))
    expect((await memoryOf(reader)).state.parts['pets']).toBe((await memoryOf(memory)).state.parts['pets'])
    const snapshot = await seeder.request('/__admin/snapshot', { headers: inSession('big') })
    expect(((await snapshot.json()) as { nextId: number }).nextId).toBe(100_001)
  })

  it('refused by the budget, leaves nothing: no staging keys, the same pets, the same count', async () => {
    const { apps, prefix } = await replicas({ maxMemory: 8 })
    const [app] = apps as [App]
    await app.request('/v1/pets', { headers: api('s') })
    const before = (await (await app.request('/__admin/state', { headers: inSession('s') })).json()) as object
    const memory = await memoryOf(app)
    const res = await app.request('/__admin/seed', adminJson({ count: 100_000 }, 'POST', 's'))
    expect(res.status).toBe(507)
    expect(((await res.json()) as { code: string }).code).toBe('insufficient_storage')
    expect(await (await app.request('/__admin/state', { headers: inSession('s') })).json()).toEqual(before)
    expect((await memoryOf(app)).state).toEqual(memory.state)
    expect(await stagingKeys(prefix)).toEqual([])
  })

  it('refused by Redis half way (its maxmemory), leaves nothing and gives the reservation back', async () => {
    const { apps, prefix } = await replicas({ maxMemory: 256 })
    const [app] = apps as [App]
    await app.request('/v1/pets', { headers: api('s') })
    const before = (await (await app.request('/__admin/state', { headers: inSession('s') })).json()) as object
    const memory = await memoryOf(app)
    const used = Number(/used_memory:([0-9]+)/.exec(await client.info('memory'))![1])
    await client.config('SET', 'maxmemory', String(used + 4 * 2 ** 20))
    await client.config('SET', 'maxmemory-policy', 'noeviction')
    try {
      const monitor = await monitorCalls()
      const res = await app.request('/__admin/seed', adminJson({ count: 100_000 }, 'POST', 's'))
      monitor.stop()
      expect(res.status).toBe(507)
      expect(((await res.json()) as { code: string }).code).toBe('insufficient_storage')
      // Redis took some slices before it refused one.
      expect(monitor.seen.filter((args) => args.includes('psStageAdd')).length).toBeGreaterThan(1)
      expect(await stagingKeys(prefix)).toEqual([])
    } finally {
      await client.config('SET', 'maxmemory', '0')
    }
    expect(await (await app.request('/__admin/state', { headers: inSession('s') })).json()).toEqual(before)
    expect((await memoryOf(app)).state).toEqual(memory.state)
  })

  it('a snapshot load of 100,000 pets goes in slices too, its rules and clock switched in with them', async () => {
    const options = { maxMemory: 256, bodyLimit: 64 * 2 ** 20 }
    const { apps, prefix } = await replicas(options)
    const [app, other] = apps as [App, App]
    const memory = createApp(options)
    const snapshotOf = async (target: App) => {
      await target.request('/__admin/seed', adminJson({ count: 100_000 }, 'POST', 'from'))
      await target.request('/__admin/faults', adminJson({ status: 503, operation: 'listPets' }, 'POST', 'from'))
      await target.request('/__admin/clock', adminJson({ now: '2031-01-01T00:00:00Z', frozen: true }, 'PUT', 'from'))
      return (await (await target.request('/__admin/snapshot', { headers: inSession('from') })).json()) as object
    }
    const snapshot = await snapshotOf(app)
    const monitor = await monitorCalls()
    const loaded = await other.request('/__admin/snapshot', adminJson(snapshot, 'PUT', 'to'))
    await expect.poll(() => monitor.seen.some((args) => args.includes('psStageCommit'))).toBe(true)
    monitor.stop()
    expect(loaded.status).toBe(204)
    expect(monitor.seen.filter((args) => args.includes('psStageAdd'))).toHaveLength(50)
    const saved = await (await app.request('/__admin/snapshot', { headers: inSession('to') })).json()
    expect(saved).toEqual(snapshot)
    expect(await stagingKeys(prefix)).toEqual([])
    // Charged as the memory store charges the same load.
    await memory.request('/__admin/snapshot', adminJson(await snapshotOf(memory), 'PUT', 'to'))
    expect(charged(await memoryOf(app))).toEqual(charged(await memoryOf(memory)))
  })
})
