import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RedisServer, startRedis } from '../../../helpers/redis-server.js'
import { startReplicas } from '../../../helpers/replicas.js'
import type { SpawnedServer } from '../../../helpers/spawn-server.js'
import { bearer } from '../../../helpers/auth.js'
import { budgetRedisHolds, redisFootprintRatio, redisReserveBytes } from '../../../../src/node/memory/redis-clamp.js'

// Issue 41 §2: a Redis at its maxmemory (noeviction) refuses writes. Every replica goes on serving
// reads (their journal entries dropped and counted, not failing the request), stays ready (the
// Service keeps its endpoints) and says the store is not writable in health and metrics; writes get
// 507 as before; deletes and resets work, and once one has freed room, writes work again.

const maxmemory = 32 * 2 ** 20
let redis: RedisServer
let replicas: SpawnedServer[] = []
let stopReplicas: () => Promise<void> = async () => undefined
let client: Redis
beforeAll(async () => {
  redis = await startRedis(10_000, ['--maxmemory', String(maxmemory), '--maxmemory-policy', 'noeviction'])
  client = new Redis(redis.url)
  // The second test stops Redis: this client's reconnections are not this test's errors.
  client.on('error', () => undefined)
  const started = await startReplicas(redis.url, 2)
  replicas = started.replicas
  stopReplicas = started.stop
}, 90_000)
afterAll(async () => {
  client?.disconnect()
  await stopReplicas()
  await redis?.dispose()
})

const auth = { ...bearer(), 'Content-Type': 'application/json' }
const inSession = (session: string, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { ...auth, 'X-Mock-Session': session },
})
const usedMemory = async (): Promise<number> => Number(/used_memory:([0-9]+)/.exec(await client.info('memory'))![1])

/** The Error body of a write Redis refused at its maxmemory (redis-store.ts storeFull), as today. */
const storeFullBody = {
  code: 'insufficient_storage',
  status: 507,
  message:
    'The state store (Redis) is full (its maxmemory): nothing was changed. To free it, reset sessions ' +
    '(POST /__admin/reset) or delete them (DELETE /__admin/sessions/{name}); or give Redis a larger maxmemory.',
}

/** The counter's value for a label set, from a scrape (0 when absent). */
const sample = (text: string, series: string): number => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? 0 : Number(line.slice(series.length + 1))
}

describe('Redis at its maxmemory, two replicas', () => {
  it('serves reads and deletes on every replica, stays ready, says so, and refuses writes with 507', async () => {
    const [first] = replicas
    // What the reads must answer, exactly, once Redis is full: a session with pets of its own.
    for (const name of ['Rex', 'Tom', 'Kit']) {
      const res = await fetch(
        `${first!.url}/v1/pets`,
        inSession('team-a', { method: 'POST', body: JSON.stringify({ name, categoryId: 1 }) }),
      )
      expect(res.status).toBe(201)
    }
    const listed = await fetch(`${first!.url}/v1/pets?limit=100`, inSession('team-a'))
    expect(listed.status).toBe(200)
    const list = await listed.text()
    const id = (JSON.parse(list) as { id: number; name: string }[]).find((pet) => pet.name === 'Kit')!.id
    const one = await (await fetch(`${first!.url}/v1/pets/${id}`, inSession('team-a'))).text()

    // Another user of the same Redis takes most of it (bounded: 64 KiB a key, at most 1,000 keys)…
    const filler = 'x'.repeat(64 * 1024)
    for (let i = 0; i < 1000 && (await usedMemory()) < maxmemory - 8 * 2 ** 20; i++)
      await client.set(`other:${i}`, filler)
    // …and the mock's own sessions fill the rest until Redis refuses: seeds of fewer and fewer pets (a
    // refused seed takes its staged pets back), then single creates, until one is refused and Redis
    // stays past its maxmemory (bounded: 40 tries a size).
    let full: Response | undefined
    const seeded: string[] = []
    let bigSeeds = 0
    for (const count of [2000, 200, 20, 1]) {
      if (count === 200) bigSeeds = seeded.length
      full = undefined
      for (let i = 0; i < 40 && full === undefined; i++) {
        const session = `bomb-${seeded.length}`
        const res =
          count === 1
            ? await fetch(
                `${first!.url}/v1/pets`,
                inSession(session, { method: 'POST', body: JSON.stringify({ name: 'x'.repeat(60), categoryId: 1 }) }),
              )
            : await fetch(
                `${first!.url}/__admin/seed`,
                inSession(session, { method: 'POST', body: JSON.stringify({ count }) }),
              )
        if (res.status === 507) full = res
        else {
          expect(res.status).toBe(count === 1 ? 201 : 204)
          seeded.push(session)
        }
      }
    }
    expect(full?.status).toBe(507)
    expect(await full!.json()).toEqual(storeFullBody)
    // Past its maxmemory by 512 KiB more, so that nothing Redis frees by itself (an expiring key, a
    // client's buffer) makes it writable again before the deletes: a script's writes after its first
    // one are not refused.
    await client.eval(
      "redis.call('DEL', KEYS[1]) return redis.call('SET', KEYS[2], ARGV[1])",
      2,
      'other:none',
      'other:over',
      'y'.repeat(512 * 1024),
    )
    expect(await usedMemory()).toBeGreaterThan(maxmemory + 512 * 1024)
    // Sessions of 2,000 pets each, which the deletes and resets below free.
    const big = seeded.filter((session) => Number(session.slice('bomb-'.length)) < bigSeeds)
    expect(big.length).toBeGreaterThanOrEqual(4)

    for (const replica of replicas) {
      // Reads: exactly what they answered before Redis filled up (their journal entries are dropped).
      const reads = await fetch(`${replica.url}/v1/pets?limit=100`, inSession('team-a'))
      expect(reads.status).toBe(200)
      expect(await reads.text()).toBe(list)
      const read = await fetch(`${replica.url}/v1/pets/${id}`, inSession('team-a'))
      expect(read.status).toBe(200)
      expect(await read.text()).toBe(one)
      // Ready: the Service keeps it.
      const ready = await fetch(`${replica.url}/__admin/health/ready`)
      expect(ready.status).toBe(200)
      expect(await ready.json()).toEqual({ status: 'ready' })
      // Health and metrics say the store refuses writes.
      const health = await fetch(`${replica.url}/__admin/health`)
      expect(health.status).toBe(200)
      const { store } = (await health.json()) as { store: { writable: boolean; reason?: string } }
      expect(store.writable).toBe(false)
      expect(store.reason).toMatch(/^The state store \(Redis\) refuses writes: OOM command not allowed/)
      const metrics = await (await fetch(`${replica.url}/__admin/metrics`, { headers: bearer() })).text()
      expect(sample(metrics, 'petstore_mock_store_writable')).toBe(0)
      expect(
        sample(metrics, 'petstore_mock_journal_dropped_total{tenant="",reason="store_full"}'),
      ).toBeGreaterThanOrEqual(2)
      // Writes: 507, the same Error body as before.
      const write = await fetch(
        `${replica.url}/v1/pets`,
        inSession('team-a', { method: 'POST', body: JSON.stringify({ name: 'No', categoryId: 1 }) }),
      )
      expect(write.status).toBe(507)
      expect(await write.json()).toEqual(storeFullBody)
    }
    // Nothing was written by the refused creates.
    expect(await (await fetch(`${first!.url}/v1/pets?limit=100`, inSession('team-a'))).text()).toBe(list)

    // Deletes and resets work on a full Redis, on each replica; once they freed room, writes work again.
    for (const [k, replica] of replicas.entries()) {
      const reset = await fetch(`${replica.url}/__admin/reset`, inSession(big[2 * k]!, { method: 'POST' }))
      expect(reset.status).toBe(204)
      const deleted = await fetch(`${replica.url}/__admin/sessions/${big[2 * k + 1]!}`, {
        method: 'DELETE',
        headers: bearer(),
      })
      expect(deleted.status).toBe(204)
    }
    // Redis frees big keys in the background (UNLINK): bounded wait, 50 × 100 ms.
    let used = await usedMemory()
    for (let i = 0; i < 50 && used >= maxmemory; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      used = await usedMemory()
    }
    expect(used).toBeLessThan(maxmemory)
    for (const replica of replicas) {
      const created = await fetch(
        `${replica.url}/v1/pets`,
        inSession('team-a', { method: 'POST', body: JSON.stringify({ name: 'Again', categoryId: 1 }) }),
      )
      expect(created.status).toBe(201)
      const health = (await (await fetch(`${replica.url}/__admin/health`)).json()) as { store: { writable: boolean } }
      expect(health.store).toEqual({ writable: true })
      const metrics = await (await fetch(`${replica.url}/__admin/metrics`, { headers: bearer() })).text()
      expect(sample(metrics, 'petstore_mock_store_writable')).toBe(1)
    }
  }, 240_000)

  it('answers 503 store_unavailable on readiness while Redis cannot be reached, as before', async () => {
    await redis.stop()
    try {
      for (const replica of replicas) {
        const ready = await fetch(`${replica.url}/__admin/health/ready`)
        expect(ready.status).toBe(503)
        expect(((await ready.json()) as { code: string }).code).toBe('store_unavailable')
      }
    } finally {
      await redis.restart()
    }
  }, 60_000)
})

// Issue 41 §2: the fleet's budget never exceeds what Redis holds. The maxmemory is read at start and a
// larger budget, derived or given, is clamped to it at the measured footprint (memory/redis-clamp.ts).
describe("the budget and Redis' maxmemory", () => {
  const budgetOf = async (url: string): Promise<number | null> =>
    ((await (await fetch(`${url}/__admin/health`)).json()) as { memory: { budgetBytes: number | null } }).memory
      .budgetBytes

  it('clamps a --max-memory whose Redis footprint exceeds maxmemory, with a banner line; leaves a smaller one', async () => {
    const small = await startRedis(10_000, ['--maxmemory', '32mb', '--maxmemory-policy', 'noeviction'])
    const started = await startReplicas(small.url, 1, { args: ['--max-memory', '512'] })
    try {
      const holds = budgetRedisHolds(32 * 2 ** 20)
      expect(holds).toBe(Math.floor((32 * 2 ** 20 - redisReserveBytes) / redisFootprintRatio / 2 ** 20))
      const [replica] = started.replicas
      expect(replica!.stderr()).toContain(
        `  memory: budget clamped from 512 MiB (--max-memory) to ${holds} MiB: Redis' maxmemory 32 MiB holds no more at ${redisFootprintRatio} bytes of Redis per byte counted`,
      )
      expect(replica!.stderr()).toContain(`  memory: budget ${holds} MiB (clamped to Redis' maxmemory 32 MiB)`)
      expect(await budgetOf(replica!.url)).toBe(holds * 2 ** 20)
      // A budget Redis holds is left as given, without the line (a prefix of its own: a fleet of its own).
      const fits = await startReplicas(small.url, 1, { args: ['--max-memory', String(holds - 2)] })
      try {
        expect(fits.replicas[0]!.stderr()).not.toContain('clamped')
        expect(await budgetOf(fits.replicas[0]!.url)).toBe((holds - 2) * 2 ** 20)
      } finally {
        await fits.stop()
      }
    } finally {
      await started.stop()
      await small.dispose()
    }
  }, 90_000)

  it("refuses to start, and exits, when the tenants' quotas no longer fit the clamped budget", async () => {
    const small = await startRedis(10_000, ['--maxmemory', '32mb', '--maxmemory-policy', 'noeviction'])
    try {
      // The example's quotas reserve 24 MiB: within --max-memory 64, beyond the 10 MiB 32mb of Redis holds.
      const tenantsFile = new URL('../../../../examples/tenants/tenants.yaml', import.meta.url).pathname
      const args = ['--tenants', tenantsFile, '--admin-token', 'root-1', '--max-memory', '64']
      await expect(startReplicas(small.url, 1, { args })).rejects.toThrow(/server exited with 2: .*quota/s)
    } finally {
      await small.dispose()
    }
  }, 90_000)

  it('keeps the budget and says so when CONFIG is refused (renamed, as managed Redis does)', async () => {
    const managed = await startRedis(10_000, ['--maxmemory', '32mb', '--rename-command', 'CONFIG', ''])
    const started = await startReplicas(managed.url, 1, { args: ['--max-memory', '512'] })
    try {
      const [replica] = started.replicas
      expect(replica!.stderr()).toMatch(
        /\n {2}memory: Redis' maxmemory is unknown \(CONFIG GET maxmemory: ERR unknown command 'config'.*\): the budget is not checked against it; give Redis at least 2\.2 × the budget \+ 8 MiB/i,
      )
      expect(await budgetOf(replica!.url)).toBe(512 * 2 ** 20)
    } finally {
      await started.stop()
      await managed.dispose()
    }
  }, 90_000)
})
