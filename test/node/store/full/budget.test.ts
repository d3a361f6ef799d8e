import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RedisServer, startRedis } from '../../../helpers/redis-server.js'
import { spawnServer, type SpawnedServer } from '../../../helpers/spawn-server.js'
import { bearer } from '../../../helpers/auth.js'

// Issue 29: a Redis at its maxmemory (noeviction, as deploy/ sets it) refuses writes; the replica answers
// 507 with the Error body, not a 500 or a 503, reads keep working, and Redis restarts with what it held.

let redis: RedisServer
let server: SpawnedServer
beforeAll(async () => {
  redis = await startRedis()
  server = await spawnServer(['--log', 'silent', '--store', redis.url])
}, 60_000)
afterAll(async () => {
  await server?.stop()
  await redis?.dispose()
})

const cap = async () => {
  const client = new Redis(redis.url)
  const used = Number(/used_memory:([0-9]+)/.exec(await client.info('memory'))![1])
  await client.config('SET', 'maxmemory', String(used + 8 * 2 ** 20))
  await client.config('SET', 'maxmemory-policy', 'noeviction')
  client.disconnect()
}

describe('Redis at its maxmemory', () => {
  it('answers 507 insufficient_storage for writes it refuses, keeps reads, and restarts with what it held', async () => {
    const auth = { ...bearer(), 'Content-Type': 'application/json' }
    const created = await fetch(`${server.url}/v1/pets`, {
      method: 'POST',
      headers: { ...auth, 'X-Mock-Session': 'control' },
      body: JSON.stringify({ name: 'control', categoryId: 1 }),
    })
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as { id: number }
    await cap()
    const statuses: number[] = []
    for (let i = 0; i < 20 && !statuses.includes(507); i++) {
      const res = await fetch(`${server.url}/__admin/seed`, {
        method: 'POST',
        headers: { ...auth, 'X-Mock-Session': `bomb${i}` },
        body: JSON.stringify({ count: 20_000 }),
      })
      statuses.push(res.status)
      if (res.status === 507) {
        expect(await res.json()).toMatchObject({ code: 'insufficient_storage', status: 507 })
      } else expect(res.status).toBe(204)
    }
    expect(statuses).toContain(507)
    const read = () => fetch(`${server.url}/v1/pets/${id}`, { headers: { ...auth, 'X-Mock-Session': 'control' } })
    expect((await fetch(`${server.url}/__admin/health`)).status).toBe(200)
    await redis.restart()
    let status = 0
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await read()).status
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200))
    }
    expect(status).toBe(200)
  }, 180_000)
})
