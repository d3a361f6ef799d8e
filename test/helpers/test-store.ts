import { inject } from 'vitest'
import type { StoreFactory } from '../../src/core/app.js'
import type { SessionStore } from '../../src/core/sessions/port.js'
import { connectRedis, RedisSessionStore } from '../../src/node/store/redis/redis-store.js'

/** The redis-server of the `redis` and `redis-lb` projects (vitest.redis.config.ts); undefined in the memory project. */
export const testRedisUrl: string | undefined = inject('redisUrl')

/** Set in the `redis-lb` project: every request of the contract suites goes through nginx to three replicas. */
export const testLoadBalanced: boolean = inject('loadBalanced') ?? false

// One connection per replica, as replicas in processes of their own have.
const clients =
  testRedisUrl === undefined
    ? []
    : Array.from({ length: testLoadBalanced ? 3 : 1 }, () => connectRedis(testRedisUrl as string))
for (const client of clients) client.on('error', () => undefined)
await Promise.all(clients.map((client) => client.connect()))

let stores = 0
// Each app under a prefix of its own: the suites of a file share one Redis, never a key.
const run = `${process.pid}-${Date.now().toString(36)}`

/**
 * The store the contract suites run on: undefined (the in-memory default) in
 * the memory project, a Redis store under a fresh key prefix in the redis one.
 */
export const testStore: StoreFactory<SessionStore> | undefined =
  clients[0] === undefined
    ? undefined
    : (start, maxSessions) => new RedisSessionStore(clients[0]!, `test:${run}:${++stores}`, start, maxSessions)

/**
 * In the `redis-lb` project: the stores of three replicas of one app, one fresh key prefix shared by
 * all three (so they share every session), each on a connection of its own.
 */
export const testReplicaStores = (): StoreFactory<SessionStore>[] => {
  const prefix = `test:${run}:${++stores}`
  return clients.map((client) => (start, maxSessions) => new RedisSessionStore(client, prefix, start, maxSessions))
}
