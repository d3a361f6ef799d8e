import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonHeaders, startReplicas } from '../../helpers/replicas.js'
import { type RedisServer, startRedis } from '../../helpers/redis-server.js'
import { bearer } from '../../helpers/auth.js'

// Restarts and outages: the replicas and redis-server are killed and started again by PID.
let redis: RedisServer

beforeAll(async () => {
  redis = await startRedis()
}, 60_000)

afterAll(async () => {
  await redis?.dispose()
})

/** A fetch that must be answered within 10 s (a hang fails the test instead of stalling it). */
const answered = (url: string, init: RequestInit = {}) => fetch(url, { ...init, signal: AbortSignal.timeout(10_000) })

const world = async (url: string) => {
  const pets = await (await answered(`${url}/v1/pets?limit=100`, { headers: bearer() })).json()
  const faults = await (await answered(`${url}/__admin/faults`)).json()
  const { requests } = (await (await answered(`${url}/__admin/requests`)).json()) as { requests: { id: number }[] }
  const clock = await (await answered(`${url}/__admin/clock`)).json()
  return { pets, faults, requests: requests.map((r) => r.id), clock }
}

/** Asks `url` until it answers 200 (at most 50 tries, 200 ms apart). */
const untilAnswered = async (url: string): Promise<Response> => {
  for (let attempt = 0; ; attempt++) {
    const res = await answered(url, { headers: bearer() })
    if (res.status === 200 || attempt >= 50) return res
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

describe('restarts lose nothing', () => {
  it('kill -9 every replica and start them again: pets, rules, journal and clock are all there', async () => {
    const first = await startReplicas(redis.url, 2)
    const [a, b] = first.replicas.map((r) => r.url) as [string, string]
    expect(
      (await answered(`${a}/v1/pets`, { method: 'POST', headers: jsonHeaders, body: '{"name":"Kept","categoryId":4}' }))
        .status,
    ).toBe(201)
    const rule = { operation: 'listPets', delayMs: 1, times: 5 }
    expect(
      (await answered(`${b}/__admin/faults`, { method: 'POST', headers: jsonHeaders, body: JSON.stringify(rule) }))
        .status,
    ).toBe(201)
    expect(
      (
        await answered(`${a}/__admin/clock`, {
          method: 'PUT',
          headers: jsonHeaders,
          body: '{"now":"2029-01-01T00:00:00Z","frozen":true}',
        })
      ).status,
    ).toBe(200)
    const before = await world(b)
    expect(before.faults).toEqual({ faults: [{ ...rule, id: 1, remaining: 4 }] })
    expect(before.pets).toContainEqual({ id: 13, name: 'Kept', categoryId: 4 })
    await first.stop()

    const second = await startReplicas(redis.url, 2, { prefix: first.prefix })
    try {
      const after = await world(second.replicas[1]!.url)
      // The reads of `world` were journalled too (the journal only grew), and its list counted the rule down once more.
      expect({ ...after, requests: after.requests.slice(-before.requests.length) }).toEqual({
        ...before,
        faults: { faults: [{ ...rule, id: 1, remaining: 3 }] },
      })
    } finally {
      await second.stop()
    }
  }, 60_000)

  it('a restart of redis-server itself (append-only file) loses nothing either', async () => {
    const group = await startReplicas(redis.url, 1)
    const url = group.replicas[0]!.url
    try {
      expect(
        (
          await answered(`${url}/v1/pets`, {
            method: 'POST',
            headers: jsonHeaders,
            body: '{"name":"Durable","categoryId":2}',
          })
        ).status,
      ).toBe(201)
      const before = await world(url)
      await redis.restart()
      const res = await untilAnswered(`${url}/v1/pets/13`)
      expect(await res.json()).toEqual({ id: 13, name: 'Durable', categoryId: 2 })
      const after = await world(url)
      expect(after.pets).toEqual(before.pets)
    } finally {
      await group.stop()
    }
  }, 60_000)
})

describe('Redis down', () => {
  it('answers 503 store_unavailable and health 503 at once, stays alive, and recovers by itself; a change refused while down is not there after', async () => {
    const group = await startReplicas(redis.url, 2)
    const [a, b] = group.replicas.map((r) => r.url) as [string, string]
    try {
      const before = await (await answered(`${a}/v1/pets?limit=100`, { headers: bearer() })).json()
      await redis.stop('SIGKILL')
      for (const url of [a, b]) {
        const res = await answered(`${url}/v1/pets/1`, { headers: bearer() })
        expect(res.status).toBe(503)
        expect(res.headers.get('content-type')).toBe('application/json')
        expect(res.headers.get('retry-after')).toBe('1')
        expect(await res.json()).toEqual({
          code: 'store_unavailable',
          message: 'The state store (Redis) cannot be reached; retry later.',
          status: 503,
        })
        const health = await answered(`${url}/__admin/health`)
        expect(health.status).toBe(503)
        expect(((await health.json()) as { code: string }).code).toBe('store_unavailable')
      }
      const refused = await answered(`${b}/v1/pets`, {
        method: 'POST',
        headers: jsonHeaders,
        body: '{"name":"Lost","categoryId":1}',
      })
      expect(refused.status).toBe(503)
      for (const replica of group.replicas) expect(replica.child.exitCode).toBeNull()

      await redis.restart()
      expect((await untilAnswered(`${a}/v1/pets/1`)).status).toBe(200)
      expect((await untilAnswered(`${b}/__admin/health`)).status).toBe(200)
      expect(await (await answered(`${b}/v1/pets?limit=100`, { headers: bearer() })).json()).toEqual(before)
    } finally {
      await group.stop()
    }
  }, 60_000)

  it('a Redis that stops answering (SIGSTOP) gives 503 after the command timeout, never a hang; answers resume on SIGCONT', async () => {
    const group = await startReplicas(redis.url, 1)
    const url = group.replicas[0]!.url
    try {
      expect((await answered(`${url}/v1/pets/1`, { headers: bearer() })).status).toBe(200)
      redis.child.kill('SIGSTOP')
      try {
        const res = await answered(`${url}/v1/pets/2`, { headers: bearer() })
        expect(res.status).toBe(503)
        expect(((await res.json()) as { code: string }).code).toBe('store_unavailable')
      } finally {
        redis.child.kill('SIGCONT')
      }
      expect((await untilAnswered(`${url}/v1/pets/2`)).status).toBe(200)
    } finally {
      await group.stop()
    }
  }, 60_000)
})
