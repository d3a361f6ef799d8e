import { describe, expect, it } from 'vitest'
import { freshPrefix } from '../../helpers/replicas.js'
import { prepareMock } from '../../../src/core/app.js'
import { openRedisStore, type RedisSessionStore } from '../../../src/node/store/redis/redis-store.js'
import { bearer } from '../../helpers/auth.js'
import {
  answered,
  defaultDrain,
  expectCleanStop,
  replicasOnOwnRedis,
  slowPostThroughStop,
} from '../../helpers/drain.js'

// Issue 41 §1's reproduction on a real redis-server: a slow POST in flight at SIGTERM used to get
// 503 store_unavailable (the Redis connection was closed under it) and the pet was lost.
const { replica, url } = replicasOnOwnRedis()

describe('SIGTERM drains a replica on Redis', () => {
  it('with default settings, a slow POST in flight gets its 201 and the pet reads back, from this replica and another; readiness 503 meanwhile; exit 0', async () => {
    const prefix = freshPrefix()
    const server = await replica(prefix, defaultDrain)
    const seen = await slowPostThroughStop(server, 'team-a-slow')
    expectCleanStop(seen)
    // Stored in Redis, not only answered: a replica started afterwards reads it.
    const next = await replica(prefix)
    const read = await answered(`${next.url}/sessions/team-a-slow/v1/pets/${seen.created.pet.id}`, {
      headers: bearer(),
    })
    expect({ status: read.status, pet: await read.json() }).toEqual({ status: 200, pet: seen.created.pet })
    expect(await next.stop('SIGTERM')).toBe(0)
  }, 90_000)

  it('the requests it answered while draining are in the journal in Redis once it exited', async () => {
    const prefix = freshPrefix()
    const server = await replica(prefix, { PETSTORE_MOCK_DRAIN_SECONDS: '1' })
    const exited = server.stop('SIGTERM')
    const headers = { ...bearer(), 'X-Mock-Session': 'owed' }
    // Sent during the drain (one connection each: Connection: close is answered anyway).
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) {
      const res = await answered(`${server.url}/v1/pets/${i + 1}`, { headers })
      statuses.push(res.status)
      await res.arrayBuffer()
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200])
    expect(await exited).toBe(0)
    const next = await replica(prefix)
    const journal = await answered(`${next.url}/__admin/requests?limit=100`, { headers })
    const entries = ((await journal.json()) as { requests: { path: string }[] }).requests
    expect(entries.map((e) => e.path).sort()).toEqual([
      '/v1/pets/1',
      '/v1/pets/2',
      '/v1/pets/3',
      '/v1/pets/4',
      '/v1/pets/5',
    ])
    expect(await next.stop('SIGTERM')).toBe(0)
  }, 90_000)

  it('quit() sends what the store owes Redis before QUIT: a write made just before it is stored, and the connection closes', async () => {
    const prefix = freshPrefix()
    const open = async () => {
      const factory = await openRedisStore({ url: url(), prefix })
      let store: RedisSessionStore | undefined
      prepareMock({}, (start, max) => (store = factory(start, max)))
      await store!.ready
      return store!
    }
    const store = await open()
    const session = await store.session('owed')
    // Not sent yet: the call waits for its turn's batch, which leaves on the next turn.
    const created = session.createPet({ name: 'Owed', categoryId: 1 })
    await store.quit()
    const pet = await created
    expect(pet).toMatchObject({ name: 'Owed', categoryId: 1 })
    // Closed: a call now is refused (503), never queued.
    await expect(Promise.resolve().then(() => store.session('owed'))).rejects.toMatchObject({ status: 503 })
    const again = await open()
    try {
      expect(await (await again.session('owed')).getPet((pet as { id: number }).id)).toEqual(pet)
    } finally {
      await again.quit()
    }
  })
})
