import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReplicas } from '../../helpers/replicas.js'
import { type RedisServer, startRedis } from '../../helpers/redis-server.js'
import { bearer } from '../../helpers/auth.js'

// The liveness and readiness probes of replicas on Redis, through its outages (made as in
// outage.test.ts: redis-server killed, stopped, started again by PID), and the metrics meanwhile.
let redis: RedisServer

beforeAll(async () => {
  redis = await startRedis()
}, 30_000)

afterAll(async () => {
  await redis?.dispose()
})

/** A fetch that must be answered within 10 s (a hang fails the test instead of stalling it). */
const answered = (url: string, init: RequestInit = {}) => fetch(url, { ...init, signal: AbortSignal.timeout(10_000) })

const probe = async (url: string, which: 'live' | 'ready') => {
  const res = await answered(`${url}/__admin/health/${which}`)
  return { status: res.status, body: (await res.json()) as { status?: string; code?: string; message?: string } }
}

/** Asks until `which` answers `status` (at most 50 tries, 200 ms apart). */
const until = async (url: string, which: 'live' | 'ready', status: number) => {
  for (let attempt = 0; ; attempt++) {
    const res = await probe(url, which)
    if (res.status === status || attempt >= 50) return res
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

const metric = async (url: string, name: string): Promise<number | undefined> => {
  const text = await (await answered(`${url}/__admin/metrics`)).text()
  const line = text.split('\n').find((l) => l.startsWith(`${name} `))
  return line === undefined ? undefined : Number(line.slice(name.length + 1))
}

describe('liveness and readiness on Redis', () => {
  it('Redis down: live stays 200 and ready goes 503 (health too); after recovery ready is 200 again, no restart', async () => {
    const group = await startReplicas(redis.url, 2)
    const urls = group.replicas.map((r) => r.url)
    const pids = group.replicas.map((r) => r.child.pid)
    try {
      for (const url of urls) {
        expect(await probe(url, 'live')).toEqual({ status: 200, body: { status: 'live' } })
        expect(await probe(url, 'ready')).toEqual({ status: 200, body: { status: 'ready' } })
      }
      await redis.stop('SIGKILL')
      for (const url of urls) {
        expect(await probe(url, 'live')).toEqual({ status: 200, body: { status: 'live' } })
        const ready = await probe(url, 'ready')
        expect(ready.status).toBe(503)
        expect(ready.body.code).toBe('store_unavailable')
        expect((await answered(`${url}/__admin/health`)).status).toBe(503)
        // The traffic and the store's errors are still scraped; the shared state cannot be read.
        expect(await metric(url, 'petstore_mock_pets')).toBeNaN()
        expect(await metric(url, 'petstore_mock_store_errors_total{kind="unreachable"}')).toBeGreaterThan(0)
      }
      await redis.restart()
      for (const url of urls) {
        expect((await until(url, 'ready', 200)).status).toBe(200)
        expect((await probe(url, 'live')).status).toBe(200)
        expect((await answered(`${url}/v1/pets/1`, { headers: bearer() })).status).toBe(200)
        expect(await metric(url, 'petstore_mock_pets')).toBe(12)
      }
      expect(group.replicas.map((r) => [r.child.pid, r.child.exitCode])).toEqual(pids.map((pid) => [pid, null]))
    } finally {
      await group.stop()
    }
  }, 60_000)

  it('a Redis that stops answering (SIGSTOP): live answers without waiting for it, ready 503 after the command timeout; 200 on SIGCONT', async () => {
    const group = await startReplicas(redis.url, 1)
    const url = group.replicas[0]!.url
    try {
      expect((await probe(url, 'ready')).status).toBe(200)
      redis.child.kill('SIGSTOP')
      try {
        // Ready is asked first and waits for Redis; live, asked after it, answers before it: it
        // waits for nothing of the store (the order of the two answers, not a stopwatch).
        const order: string[] = []
        const pending = probe(url, 'ready').then((res) => (order.push('ready'), res))
        const live = await probe(url, 'live')
        order.push('live')
        expect(live.status).toBe(200)
        const ready = await pending
        expect(order).toEqual(['live', 'ready'])
        expect(ready.status).toBe(503)
        expect(ready.body.code).toBe('store_unavailable')
        expect(await metric(url, 'petstore_mock_store_errors_total{kind="timeout"}')).toBeGreaterThan(0)
      } finally {
        redis.child.kill('SIGCONT')
      }
      expect((await until(url, 'ready', 200)).status).toBe(200)
    } finally {
      await group.stop()
    }
  }, 60_000)

  it('a Redis that refuses writes (NOREPLICAS): ready 503 with its reply, live 200; ready again once it takes them', async () => {
    const group = await startReplicas(redis.url, 1)
    const url = group.replicas[0]!.url
    const admin = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0 })
    await admin.connect()
    try {
      expect((await probe(url, 'ready')).status).toBe(200)
      // No replica can acknowledge a write: Redis refuses every write and still answers reads.
      await admin.config('SET', 'min-replicas-to-write', '1')
      try {
        const ready = await probe(url, 'ready')
        expect(ready.status).toBe(503)
        expect(ready.body).toMatchObject({ code: 'service_unavailable', status: 503 })
        expect(ready.body.message).toMatch(/^The state store \(Redis\) refuses writes: NOREPLICAS /)
        expect(await probe(url, 'live')).toEqual({ status: 200, body: { status: 'live' } })
        expect(await metric(url, 'petstore_mock_store_errors_total{kind="refused"}')).toBeGreaterThan(0)
      } finally {
        await admin.config('SET', 'min-replicas-to-write', '0')
      }
      expect(await probe(url, 'ready')).toEqual({ status: 200, body: { status: 'ready' } })
    } finally {
      admin.disconnect()
      await group.stop()
    }
  }, 60_000)
})
