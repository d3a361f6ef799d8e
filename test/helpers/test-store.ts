import { inject } from 'vitest'
import type { SessionStore } from '../../src/core/state/port.js'
import type { StartState } from '../../src/core/state/sessions.js'
import { connectRedis, RedisSessionStore } from '../../src/node/store/redis/redis-store.js'

/** The redis-server of the `redis` project (vitest.config.ts); undefined in the memory project. */
export const testRedisUrl: string | undefined = inject('redisUrl')

const client = testRedisUrl === undefined ? undefined : connectRedis(testRedisUrl)
if (client) {
  client.on('error', () => undefined)
  await client.connect()
}

let stores = 0
// Each app under a prefix of its own: the suites of a file share one Redis, never a key.
const run = `${process.pid}-${Date.now().toString(36)}`

/**
 * The store the contract suites run on: undefined (the in-memory default) in
 * the memory project, a Redis store under a fresh key prefix in the redis one.
 */
export const testStore: ((start: StartState, maxSessions: number) => SessionStore) | undefined =
  client === undefined
    ? undefined
    : (start, maxSessions) => new RedisSessionStore(client, `test:${run}:${++stores}`, start, maxSessions)
