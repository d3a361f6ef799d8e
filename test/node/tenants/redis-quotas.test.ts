import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppOptions, createApp, prepareMock } from '../../../src/core/app.js'
import { openRedisStore, type RedisSessionStore } from '../../../src/node/store/redis/redis-store.js'
import type { StartState } from '../../../src/core/sessions/memory-store.js'
import { readTenants } from '../../../src/node/start/tenants-file.js'
import { type RedisServer, startRedis } from '../../helpers/redis-server.js'
import { bearer } from '../../helpers/auth.js'
import { startReplicas } from '../../helpers/replicas.js'
import { spawnServer } from '../../helpers/spawn-server.js'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// Issue 39 §2 on Redis: each tenant's sessions, state memory and journal bytes are counted fleet-wide,
// atomically in the scripts, so that team A, up to and beyond its quotas on every replica, never
// refuses team B nor takes a journal entry of its. Two apps on one Redis prefix are two replicas;
// the example tenants file is the one served.

let redis: RedisServer
let client: Redis
const opened: RedisSessionStore[] = []
let prefixes = 0

const exampleFile = new URL('../../../examples/tenants/tenants.yaml', import.meta.url).pathname
const root = 'root-1'
// As the example's comment starts it: --tenants tenants.yaml --admin-token root-1 --max-memory 64.
const tenants = readTenants({ tenants: exampleFile, apiKeys: ['t'], adminTokens: [root], maxSessions: 100 }, 64)!
// 't': a /v1 key of no tenant (with tenants, the accepted keys are --api-key and the tenants', issue 39 §1).
const options: AppOptions = { tenants, apiKeys: ['t'], adminTokens: [root], maxMemory: 64 }
const MiB = 2 ** 20

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

/** `count` apps (replicas) on one Redis prefix (a fresh one unless given: a restart reuses it). */
const replicas = async (
  count = 2,
  prefix = `q${++prefixes}`,
  with_ = options,
): Promise<{ apps: App[]; prefix: string }> => {
  const apps: App[] = []
  for (let i = 0; i < count; i++) {
    const factory = await openRedisStore({ url: redis.url, prefix })
    apps.push(
      prepareMock(with_, (start: StartState, max: number) => {
        const store = factory(start, max)
        opened.push(store)
        return store
      }).build(),
    )
  }
  return { apps, prefix }
}

const keyOf = (session: string): string =>
  session.startsWith('team-a') ? 'key-a-1' : session.startsWith('team-b') ? 'key-b-1' : 't'
const v1 = async (app: App, session: string, path = '/v1/pets?limit=1', init: RequestInit = {}) =>
  app.request(`/sessions/${session}${path}`, {
    ...init,
    headers: { ...bearer(keyOf(session)), ...(init.headers as Record<string, string>) },
  })
const admin = async (app: App, path: string, init: RequestInit = {}) =>
  app.request(path, { ...init, headers: { ...bearer(root), ...(init.headers as Record<string, string>) } })
const adminIn = (app: App, session: string, path: string, init: RequestInit = {}) =>
  admin(app, `/sessions/${session}${path}`, init)
const seed = (app: App, session: string, count: number) =>
  adminIn(app, session, '/__admin/seed', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ count, seed: 7 }),
  })

const sessionNames = async (app: App): Promise<string[]> => {
  const body = (await (await admin(app, '/__admin/sessions')).json()) as { sessions: { name: string }[] }
  return body.sessions.map((session) => session.name).sort()
}

interface TenantUse {
  tenant: string
  sessions: { used: number; limit: number }
  memory: { usedBytes: number; limitBytes: number }
  journal: { usedBytes: number; limitBytes: number; entries: number }
}
interface Memory {
  usedRatio: number | null
  state: { shareBytes: number | null; usedBytes: number }
  journal: { shareBytes: number | null; usedBytes: number; entries: number }
  tenants?: TenantUse[]
}
const memoryOf = async (app: App): Promise<Memory> =>
  ((await (await admin(app, '/__admin/health')).json()) as { memory: Memory }).memory
const useOf = async (app: App, tenant: string): Promise<TenantUse> =>
  (await memoryOf(app)).tenants!.find((use) => use.tenant === tenant)!

const journalOf = async (app: App, session: string) =>
  (await (await adminIn(app, session, '/__admin/requests')).json()) as { requests: { id: number }[]; dropped: number }

const quotaBody = (sessions: number) => ({
  code: 'quota_exceeded',
  status: 429,
  message: `Tenant team-a has ${sessions} sessions, its quota (quota.sessions); no new session was created. Free one with DELETE /__admin/sessions/{name} and a team-a admin token, or wait until one is idle past --session-ttl.`,
})

describe('sessions quota on Redis, fleet-wide', () => {
  it("team A's quota of 2 is 2 across both replicas; the third is 429 quota_exceeded and changes nothing; team B is never refused", async () => {
    const { apps, prefix } = await replicas()
    const [one, two] = apps as [App, App]
    expect((await v1(one, 'team-a-1')).status).toBe(200)
    expect((await v1(two, 'team-a-2')).status).toBe(200)
    const before = await sessionNames(one)
    const keys = (await client.keys(`${prefix}:*`)).sort()
    for (const app of [one, two]) {
      const refused = await v1(app, 'team-a-3')
      expect(refused.status).toBe(429)
      expect(refused.headers.get('X-Mock-Session-Created')).toBeNull()
      expect(await refused.json()).toEqual(quotaBody(2))
      // An admin write is refused the same (it would make the session).
      const write = await adminIn(app, 'team-a-4', '/__admin/faults', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ operation: 'listPets', status: 503 }),
      })
      expect(write.status).toBe(429)
      expect(await write.json()).toEqual(quotaBody(2))
    }
    // Nothing changed: no session, no key.
    expect(await sessionNames(two)).toEqual(before)
    expect((await client.keys(`${prefix}:*`)).sort()).toEqual(keys)
    // Team B, on either replica, makes its five; the sessions of no tenant theirs.
    for (let i = 1; i <= 5; i++) expect((await v1(apps[i % 2]!, `team-b-${i}`)).status).toBe(200)
    expect((await v1(two, 'elsewhere')).status).toBe(200)
    expect(await useOf(one, 'team-a')).toMatchObject({ sessions: { used: 2, limit: 2 } })
    expect(await useOf(two, 'team-b')).toMatchObject({ sessions: { used: 5, limit: 5 } })
    // A session of team A deleted frees its place, on every replica.
    expect((await admin(two, '/__admin/sessions/team-a-1', { method: 'DELETE' })).status).toBe(204)
    expect((await v1(one, 'team-a-3')).status).toBe(200)
    expect((await v1(two, 'team-a-5')).status).toBe(429)
  })

  it('concurrent creates on both replicas make exactly the quota', async () => {
    const { apps } = await replicas()
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => v1(apps[i % 2]!, `team-a-c${i}`).then((res) => res.status)),
    )
    expect(answers.filter((status) => status === 200)).toHaveLength(2)
    expect(answers.filter((status) => status === 429)).toHaveLength(18)
    expect((await sessionNames(apps[0]!)).filter((name) => name.startsWith('team-a'))).toHaveLength(2)
    // Team B, created at the same time on both replicas, all made.
    const b = await Promise.all(
      Array.from({ length: 5 }, (_, i) => v1(apps[i % 2]!, `team-b-c${i}`).then((res) => res.status)),
    )
    expect(b).toEqual([200, 200, 200, 200, 200])
  })

  it('a restart keeps the counts: the fleet started again still refuses team A at 2, and frees a place on a delete', async () => {
    const { apps, prefix } = await replicas()
    expect((await v1(apps[0]!, 'team-a-1')).status).toBe(200)
    expect((await v1(apps[1]!, 'team-a-2')).status).toBe(200)
    expect((await seed(apps[0]!, 'team-a-1', 3000)).status).toBe(204)
    const used = (await useOf(apps[0]!, 'team-a')).memory.usedBytes
    // Both replicas stop; two new ones start on the same Redis and prefix.
    const again = (await replicas(2, prefix)).apps
    expect(await useOf(again[1]!, 'team-a')).toMatchObject({
      sessions: { used: 2, limit: 2 },
      memory: { usedBytes: used },
    })
    expect(await (await v1(again[0]!, 'team-a-3')).json()).toEqual(quotaBody(2))
    // A reset keeps the session in its tenant's pool: its pets go back to team A's share, its place stays.
    expect((await adminIn(again[0]!, 'team-a-1', '/__admin/reset', { method: 'POST' })).status).toBe(204)
    expect(await useOf(again[1]!, 'team-a')).toMatchObject({
      sessions: { used: 2 },
      memory: { usedBytes: 2 * 16 * 1024 },
    })
    expect(await (await v1(again[1]!, 'team-a-3')).json()).toEqual(quotaBody(2))
    expect((await admin(again[1]!, '/__admin/sessions/team-a-1', { method: 'DELETE' })).status).toBe(204)
    expect(await useOf(again[0]!, 'team-a')).toMatchObject({ sessions: { used: 1 }, memory: { usedBytes: 16 * 1024 } })
    expect((await v1(again[0]!, 'team-a-3')).status).toBe(200)
  })
})

describe('the sessions of no tenant on Redis', () => {
  it('share what the tenants did not reserve of --max-sessions: 503 too_many_sessions at that remainder, the tenants untouched', async () => {
    // --max-sessions 8: team A's 2 and team B's 5 reserved, 1 left for the sessions of no tenant.
    const { apps } = await replicas(2, undefined, { ...options, maxSessions: 8 })
    expect((await v1(apps[0]!, 'free-1')).status).toBe(200)
    const full = await v1(apps[1]!, 'free-2')
    expect(full.status).toBe(503)
    expect(await full.json()).toEqual({
      code: 'too_many_sessions',
      status: 503,
      message:
        '1 sessions exist, the most this server keeps (--max-sessions 1); no new session was created. Free one with DELETE /__admin/sessions/{name}, or wait until one is idle past --session-ttl.',
    })
    for (let i = 1; i <= 5; i++) expect((await v1(apps[i % 2]!, `team-b-${i}`)).status).toBe(200)
    for (let i = 1; i <= 2; i++) expect((await v1(apps[i % 2]!, `team-a-${i}`)).status).toBe(200)
    expect((await v1(apps[0]!, 'free-3')).status).toBe(503)
  })
})

describe('state memory quota on Redis, fleet-wide', () => {
  it("team A's writes beyond quota.memoryMiB are 507 naming its quota and change nothing; team B's and no tenant's go on", async () => {
    const { apps } = await replicas()
    const [one, two] = apps as [App, App]
    // About 4.6 MiB of pets a seed: the second, on the other replica, passes team A's 8 MiB.
    expect((await seed(one, 'team-a-1', 30_000)).status).toBe(204)
    const use = await useOf(two, 'team-a')
    expect(use.memory.limitBytes).toBe(8 * MiB)
    expect(use.memory.usedBytes).toBeGreaterThan(4 * MiB)
    const pets = await (await v1(two, 'team-a-2', '/v1/pets?limit=5')).json()
    const refused = await seed(two, 'team-a-2', 30_000)
    expect(refused.status).toBe(507)
    const body = (await refused.json()) as { code: string; status: number; message: string }
    expect(body.code).toBe('insufficient_storage')
    expect(body.status).toBe(507)
    expect(body.message).toMatch(
      /^Tenant team-a uses \d+\.\d MiB of its memory quota of 8\.0 MiB \(quota\.memoryMiB\): pets need \d+\.\d MiB more and \d+\.\d MiB is free; pets hold the most \(\d+\.\d MiB\)\. Nothing was changed\. To free it, .+, with a team-a admin token; or ask the operator for a larger quota\.memoryMiB\.$/,
    )
    expect(body.message).not.toContain('team-b')
    // Nothing changed: the same pets, the same use.
    expect(await (await v1(one, 'team-a-2', '/v1/pets?limit=5')).json()).toEqual(pets)
    expect((await useOf(one, 'team-a')).memory.usedBytes).toBe(use.memory.usedBytes + 16 * 1024)
    // A create in team A's full session is refused too, on either replica.
    const create = { method: 'POST', headers: { 'Content-Type': 'application/json' } }
    expect((await seed(two, 'team-a-1', 60_000)).status).toBe(507)
    // Team B (on the replica that refused team A) and a session of no tenant seed as much, and create.
    for (const session of ['team-b-1', 'nobody']) {
      expect((await seed(two, session, 30_000)).status).toBe(204)
      const made = await v1(one, session, '/v1/pets', { ...create, body: JSON.stringify({ name: 'b', categoryId: 1 }) })
      expect(made.status).toBe(201)
    }
    const b = await useOf(one, 'team-b')
    expect(b.memory.usedBytes).toBeGreaterThan(4 * MiB)
    expect(b.memory.usedBytes).toBeLessThan(8 * MiB)
    // Team A's use is its own: the share of no tenant does not count it, nor team B's.
    expect((await memoryOf(one)).state.usedBytes).toBeLessThan(6 * MiB)
    expect((await memoryOf(one)).usedRatio).toBeGreaterThan(0.5)
  })
})

describe('journal quota on Redis, fleet-wide', () => {
  it("team A's journal beyond quota.journalMiB drops only its own oldest entries; team B loses none", async () => {
    const { apps } = await replicas()
    const big = { 'X-Big': 'h'.repeat(8000), 'X-Other': 'o'.repeat(8000) }
    // Team B and a session of no tenant record first.
    for (let i = 0; i < 20; i++)
      expect((await v1(apps[i % 2]!, 'team-b-1', '/v1/pets?limit=1', { headers: big })).status).toBe(200)
    for (let i = 0; i < 5; i++) await v1(apps[i % 2]!, 'nobody')
    // Team A, from both replicas, over two sessions: far beyond its 4 MiB.
    for (let i = 0; i < 1000; i++) {
      const res = await v1(apps[i % 2]!, `team-a-${1 + (i % 2)}`, '/v1/pets?limit=1', { headers: big })
      expect(res.status).toBe(200)
    }
    const a = await useOf(apps[0]!, 'team-a')
    expect(a.journal.limitBytes).toBe(4 * MiB)
    expect(a.journal.usedBytes).toBeLessThanOrEqual(4 * MiB)
    expect(a.journal.usedBytes).toBeGreaterThan(3 * MiB)
    const [a1, a2] = [await journalOf(apps[1]!, 'team-a-1'), await journalOf(apps[0]!, 'team-a-2')]
    expect(a1.dropped + a2.dropped).toBeGreaterThan(0)
    expect(a1.requests.length + a1.dropped).toBe(500)
    expect(a2.requests.length + a2.dropped).toBe(500)
    expect(a.journal.entries).toBe(a1.requests.length + a2.requests.length)
    // Team B kept every entry, in order; so did the session of no tenant.
    const b = await journalOf(apps[1]!, 'team-b-1')
    expect(b.dropped).toBe(0)
    expect(b.requests.map((entry) => entry.id)).toEqual(Array.from({ length: 20 }, (_, k) => 20 - k))
    expect((await journalOf(apps[0]!, 'nobody')).requests).toHaveLength(5)
    expect((await useOf(apps[0]!, 'team-b')).journal.entries).toBe(20)
    // Clearing team A's journals gives its share back to the byte.
    for (const session of ['team-a-1', 'team-a-2']) {
      expect((await adminIn(apps[0]!, session, '/__admin/requests', { method: 'DELETE' })).status).toBe(204)
    }
    expect((await useOf(apps[1]!, 'team-a')).journal).toEqual({ usedBytes: 0, limitBytes: 4 * MiB, entries: 0 })
  })
})

describe('without tenants on Redis', () => {
  it('keeps the keys of before: no pool keys, no tenant in the report', async () => {
    const { apps, prefix } = await replicas(2, undefined, { maxMemory: 64, maxSessions: 2 })
    for (const session of ['s1', 's2'])
      expect((await apps[0]!.request(`/sessions/${session}/v1/pets`, { headers: bearer() })).status).toBe(200)
    const full = await apps[1]!.request('/sessions/s3/v1/pets', { headers: bearer() })
    expect(full.status).toBe(503)
    expect(((await full.json()) as { code: string }).code).toBe('too_many_sessions')
    expect(await client.keys(`${prefix}:q:*`)).toEqual([])
    expect(await client.exists(`${prefix}:tn`)).toBe(0)
    expect((await memoryOf(apps[0]!)).tenants).toBeUndefined()
  })
})

describe('two processes started with the example file (--tenants, real sockets)', () => {
  it('count team A fleet-wide under concurrent creates, and refuse a replica whose quotas differ', async () => {
    const args = ['--tenants', exampleFile, '--admin-token', root, '--max-memory', '64']
    const group = await startReplicas(redis.url, 2, { args })
    const dir = mkdtempSync(join(tmpdir(), 'quota-redis-'))
    try {
      const [one, two] = group.replicas.map((replica) => replica.url) as [string, string]
      const get = (url: string, session: string) =>
        fetch(`${url}/sessions/${session}/v1/pets?limit=1`, { headers: bearer(keyOf(session)) })
      const statuses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => get(i % 2 ? two : one, `team-a-p${i}`).then((res) => res.status)),
      )
      expect(statuses.filter((status) => status === 200)).toHaveLength(2)
      expect(statuses.filter((status) => status === 429)).toHaveLength(18)
      const refused = await get(one, 'team-a-late')
      expect(await refused.json()).toEqual(quotaBody(2))
      const b = await Promise.all(
        Array.from({ length: 5 }, (_, i) => get(i % 2 ? two : one, `team-b-p${i}`).then((res) => res.status)),
      )
      expect(b).toEqual([200, 200, 200, 200, 200])
      // A replica whose tenants' quotas differ would count other pools: it may not join.
      const other = join(dir, 'tenants.yaml')
      writeFileSync(other, readFileSync(exampleFile, 'utf8').replace('sessions: 2,', 'sessions: 1,'))
      const baseArgs = ['--store', redis.url, '--store-prefix', group.prefix, '--log', 'silent']
      await expect(
        spawnServer([...baseArgs, '--tenants', other, '--admin-token', root, '--max-memory', '64'], {}, 15_000),
      ).rejects.toThrow(/differs from the fleet's[^]*\n {2}tenants: /)
    } finally {
      rmSync(dir, { recursive: true, force: true })
      await group.stop()
    }
  }, 60_000)
})
