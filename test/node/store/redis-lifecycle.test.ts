import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { prepareMock } from '../../../src/core/app.js'
import { connectRedis, openRedisStore, type RedisSessionStore } from '../../../src/node/store/redis/redis-store.js'
import type { StartState } from '../../../src/core/sessions/memory-store.js'
import type { RedisSession } from '../../../src/node/store/redis/redis-session.js'
import { isOutcome, type Selection } from '../../../src/core/sessions/lifecycle.js'
import { legacyFleetRecord, storeSchemaVersion } from '../../../src/node/store/redis/fleet-fingerprint.js'
import { type RedisServer, startRedis } from '../../helpers/redis-server.js'
import { spawnServer } from '../../helpers/spawn-server.js'
import { bearer } from '../../helpers/auth.js'

// Issue 28 on Redis: keys that carry the TTL, tombstones shared by replicas, one configuration per fleet.
let redis: RedisServer
const opened: RedisSessionStore[] = []
let prefixes = 0
const auth = bearer()

beforeAll(async () => {
  redis = await startRedis()
}, 30_000)

afterAll(async () => {
  for (const store of opened) store.close()
  await redis?.dispose()
})

const redisApp = async (prefix: string, options: Parameters<typeof prepareMock>[0] = {}) => {
  const factory = await openRedisStore({ url: redis.url, prefix })
  return prepareMock(options, (start: StartState, max: number) => {
    const store = factory(start, max)
    opened.push(store)
    return store
  }).build()
}

const withClient = async <T>(use: (client: ReturnType<typeof connectRedis>) => Promise<T>): Promise<T> => {
  const client = connectRedis(redis.url)
  await client.connect()
  try {
    return await use(client)
  } finally {
    client.disconnect()
  }
}

describe('the Redis store’s sessions expire', () => {
  it('every key of a named session carries the TTL, the journal’s included; the default session’s none', async () => {
    const prefix = `life${++prefixes}`
    const app = await redisApp(prefix, { sessionTtl: 600, rateLimit: { limit: 100, windowSeconds: 60 } })
    await app.request('/v1/pets', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json', 'X-Mock-Session': 'job' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    })
    await app.request('/v1/pets', { headers: auth })
    // A rate-limit window and a deprecated call's count: keys made after the session, by the request path.
    await app.request('/v1/pets/1', { headers: { ...auth, 'X-Mock-Session': 'job' } })
    const ttls = await withClient(async (client) => {
      const keys = await client.keys(`${prefix}:s:job:*`)
      return Object.fromEntries(
        await Promise.all(keys.map(async (key) => [key.slice(prefix.length), await client.pttl(key)])),
      )
    })
    expect(Object.keys(ttls)).toEqual(
      expect.arrayContaining([':s:job:m', ':s:job:i', ':s:job:j', ':s:job:jn', ':s:job:w', ':s:job:wo', ':s:job:d']),
    )
    for (const [key, ttl] of Object.entries(ttls)) {
      expect(ttl, key).toBeGreaterThan(600_000)
      expect(ttl, key).toBeLessThanOrEqual(660_000)
    }
    const defaultTtl = await withClient((client) => client.pttl(`${prefix}:s:default:j`))
    expect(defaultTtl).toBe(-1)
  })

  it('a session idle past the TTL answers 410 on another replica too, and its keys are gone', async () => {
    const prefix = `life${++prefixes}`
    const one = await redisApp(prefix, { sessionTtl: 1 })
    const two = await redisApp(prefix, { sessionTtl: 1 })
    await one.request('/v1/pets', { headers: { ...auth, 'X-Mock-Session': 'job-a' } })
    await new Promise((resolve) => setTimeout(resolve, 2100))
    const res = await two.request('/v1/pets', { headers: { ...auth, 'X-Mock-Session': 'job-a' } })
    expect(res.status).toBe(410)
    expect((await res.json()).code).toBe('session_expired')
    expect(await withClient((client) => client.keys(`${prefix}:s:job-a:*`))).toEqual([])
    expect((await (await one.request('/__admin/health')).json()).sessionsDropped).toBe(1)
    expect((await one.request('/v1/pets', { headers: { ...auth, 'X-Mock-Session': 'job-a' } })).status).toBe(410)
  })
})

// Issue 40: a change refused with 507 in the session its request made leaves none (SessionStore.discardMade),
// unless any selection, on any replica, has used it since. Through the routes: refused-writes.test.ts.
describe('the Redis store discards a session its maker’s change was refused in', () => {
  const made = (selection: Selection<RedisSession>): RedisSession => {
    if (!isOutcome(selection) || selection.outcome !== 'created') throw new Error(JSON.stringify(selection))
    return selection.session
  }
  const names = async (store: RedisSessionStore) => (await store.sessions()).map((s) => s.name)

  it('only while no other selection used it, by the mark psSession gave its maker: the place and bytes back', async () => {
    const prefix = `discard${++prefixes}`
    await redisApp(prefix, { maxSessions: 2, maxMemory: 1 })
    const one = opened.at(-1)!
    await redisApp(prefix, { maxSessions: 2, maxMemory: 1 })
    const two = opened.at(-1)!
    const before = (await one.memory()).state.parts.sessions
    // Made, then discarded: gone, its bytes and its place under --max-sessions back; once only.
    const a = made(await one.select('a', 'use'))
    expect(await one.discardMade(a)).toBe(true)
    expect(await names(two)).toEqual(['default'])
    expect((await two.memory()).state.parts.sessions).toBe(before)
    expect(await one.discardMade(a)).toBe(false)
    // Selected since by another replica (to use it, or to read it): kept.
    for (const mode of ['use', 'read'] as const) {
      const b = made(await one.select(`b-${mode}`, 'use'))
      expect(await two.select(`b-${mode}`, mode)).not.toHaveProperty('outcome')
      expect(await one.discardMade(b)).toBe(false)
    }
    expect(await names(one)).toEqual(['default', 'b-use', 'b-read'])
    expect(await two.select('c', 'use')).toMatchObject({ outcome: 'full' })
    expect(await one.dropSession('b-use')).toBe(true)
    // Dropped and made again by another replica: the first maker's mark no longer holds.
    const first = made(await one.select('d', 'use'))
    expect(await two.dropSession('d')).toBe(true)
    const second = made(await two.select('d', 'use'))
    expect(await one.discardMade(first)).toBe(false)
    expect(await names(one)).toEqual(['default', 'b-read', 'd'])
    expect(await two.discardMade(second)).toBe(true)
    // A session the caller found, not made: never.
    const found = await one.select('b-read', 'use')
    expect(await one.discardMade(found as RedisSession)).toBe(false)
    expect(await names(one)).toEqual(['default', 'b-read'])
  })

  it('puts back the tombstone a revive cleared', async () => {
    const prefix = `discard${++prefixes}`
    await redisApp(prefix, { sessionTtl: 1 })
    const store = opened.at(-1)!
    made(await store.select('gone', 'use'))
    await new Promise((done) => setTimeout(done, 2100))
    expect(await store.select('gone', 'use')).toMatchObject({ outcome: 'expired' })
    const [stone] = await store.tombstones()
    const revived = made(await store.select('gone', 'revive'))
    expect(await store.tombstones()).toEqual([])
    expect(await store.discardMade(revived)).toBe(true)
    expect(await store.tombstones()).toEqual([stone])
    expect(await store.select('gone', 'use')).toEqual({ outcome: 'expired', tombstone: stone })
  })
})

describe('one fleet, one configuration', () => {
  it('a replica whose options differ refuses to start naming the difference; --reconfigure replaces them', async () => {
    const prefix = `fleet${++prefixes}`
    const base = { seed: 1, 'max-pets': 100 }
    const first = await openRedisStore({ url: redis.url, prefix, fleet: { options: base, reconfigure: false } })
    expect(first).toBeTypeOf('function')
    await expect(
      openRedisStore({ url: redis.url, prefix, fleet: { options: { ...base }, reconfigure: false } }),
    ).resolves.toBeTypeOf('function')
    await expect(
      openRedisStore({ url: redis.url, prefix, fleet: { options: { ...base, seed: 2 }, reconfigure: false } }),
    ).rejects.toThrow(
      /differs from the fleet's in Redis \(prefix fleet\d+\), option by option:\n {2}seed: this replica's 2, the fleet's 1\n.*--reconfigure/,
    )
    await openRedisStore({ url: redis.url, prefix, fleet: { options: { ...base, seed: 2 }, reconfigure: true } })
    await expect(
      openRedisStore({ url: redis.url, prefix, fleet: { options: base, reconfigure: false } }),
    ).rejects.toThrow(/seed: this replica's 1, the fleet's 2/)
  })

  it('keeps the configuration as a record of named fields, secrets as digests, and 0.2.0’s fingerprint beside it', async () => {
    const prefix = `fleet${++prefixes}`
    const options = { seed: 1, 'api-key': 'sha256:0123456789ab', 'session-by-key': false }
    await openRedisStore({ url: redis.url, prefix, fleet: { options, reconfigure: false } })
    const [record, legacy] = await withClient((client) =>
      Promise.all([client.hgetall(`${prefix}:config`), client.get(`${prefix}:fleet`)]),
    )
    expect(record).toEqual({ seed: '1', 'api-key': '"sha256:0123456789ab"', 'session-by-key': 'false' })
    // 0.2.0 fingerprinted the seed (and the other options of legacyFleetKeys) only.
    expect(JSON.parse(legacy!)).toEqual({ fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/), options: { seed: 1 } })
  })

  it('joins a fleet 0.2.0 started: compares the options 0.2.0 knew, then records its own for the rest', async () => {
    const prefix = `fleet${++prefixes}`
    // What 0.2.0 (commit 1af3593) writes: its fingerprint only, layout 4.
    const legacy = legacyFleetRecord({ seed: 1, 'max-pets': 100 })
    await withClient((client) =>
      Promise.all([client.set(`${prefix}:fleet`, legacy), client.set(`${prefix}:schema`, '4')]),
    )
    await expect(
      openRedisStore({
        url: redis.url,
        prefix,
        fleet: { options: { seed: 2, 'max-pets': 100, 'session-by-key': false }, reconfigure: false },
      }),
    ).rejects.toThrow(/seed: this replica's 2, the fleet's 1/)
    expect(await withClient((client) => client.exists(`${prefix}:config`))).toBe(0)
    const mine = { seed: 1, 'max-pets': 100, 'session-by-key': true }
    const joined = await openRedisStore({ url: redis.url, prefix, fleet: { options: mine, reconfigure: false } })
    expect(joined.fleetNotes).toEqual([expect.stringMatching(/^ {2}fleet: joined a fleet 0\.2\.0 started/)])
    expect(await withClient((client) => client.hgetall(`${prefix}:config`))).toEqual({
      seed: '1',
      'max-pets': '100',
      'session-by-key': 'true',
    })
    // 0.2.0's fingerprint and layout are left as they were: 0.2.0's replicas keep starting beside it.
    expect(await withClient((client) => client.get(`${prefix}:fleet`))).toBe(legacy)
    expect(await withClient((client) => client.get(`${prefix}:schema`))).toBe('4')
    await expect(
      openRedisStore({
        url: redis.url,
        prefix,
        fleet: { options: { ...mine, 'session-by-key': false }, reconfigure: false },
      }),
    ).rejects.toThrow(/session-by-key: this replica's false, the fleet's true/)
    // A later version's option is set by its first replica that agrees on the rest; a refused one adds nothing.
    await expect(
      openRedisStore({
        url: redis.url,
        prefix,
        fleet: { options: { ...mine, seed: 3, 'future-option': 'x' }, reconfigure: false },
      }),
    ).rejects.toThrow(/seed: this replica's 3, the fleet's 1/)
    const later = await openRedisStore({
      url: redis.url,
      prefix,
      fleet: { options: { ...mine, 'future-option': 'y' }, reconfigure: false },
    })
    expect(later.fleetNotes).toEqual(["  fleet: options the fleet's record lacked, now this replica's: future-option"])
    expect(await withClient((client) => client.hget(`${prefix}:config`, 'future-option'))).toBe('"y"')
    await openRedisStore({ url: redis.url, prefix, fleet: { options: mine, reconfigure: false } })
  })

  it('the command: a replica started with --faker --count 5 beside fixture ones refuses to start (exit 2)', async () => {
    // Issue 28's scenario: it joined two replicas started with the fixtures, and sessions made through it began
    // with other pets. Now it exits 2 naming the difference; --reconfigure makes its options the fleet's.
    const store = ['--store', redis.url, '--store-prefix', `cmd${++prefixes}`, '--log', 'silent']
    const fixtures = await spawnServer(store)
    try {
      const refused = await refusal(spawnServer([...store, '--faker', '--count', '5']))
      expect(refused).toMatch(/^server exited with 2: petstore-mock: this replica's configuration differs/)
      expect(refused).toMatch(
        /\n {2}pets: this replica's "faker 5 sha256:[0-9a-f]{12}", the fleet's "bundled sha256:[0-9a-f]{12}"\n/,
      )
      const reconfigured = await spawnServer([...store, '--faker', '--count', '5', '--reconfigure'])
      expect(await reconfigured.stop()).toBe(0)
    } finally {
      await fixtures.stop()
    }
  })

  // Issue 41 §3: each of these started and served beside a fleet that runs without it.
  it.each([
    { differs: ['--session-by-key'], line: "session-by-key: this replica's true, the fleet's false" },
    {
      differs: ['--api-key', 'only-this'],
      line: /^ {2}api-key: this replica's "sha256:[0-9a-f]{12}", the fleet's "none"$/,
    },
    { differs: ['--max-memory', '200'], line: "max-memory: this replica's 200, the fleet's 100" },
    {
      differs: ['--cors-origin', 'https://qa.example'],
      line: `cors: this replica's "https://qa.example", the fleet's "*"`,
    },
    { differs: ['--max-sessions', '7'], line: "max-sessions: this replica's 7, the fleet's 100" },
  ])(
    'a replica started with $differs beside a fleet without refuses (exit 2, the option named), then is accepted with --reconfigure',
    async ({ differs, line }) => {
      const store = [
        '--store',
        redis.url,
        '--store-prefix',
        `cmd${++prefixes}`,
        '--log',
        'silent',
        '--max-memory',
        '100',
      ]
      const first = await spawnServer(store)
      try {
        const [flag, value] = differs
        const args = flag === '--max-memory' ? [...store.slice(0, -2), flag, value!] : [...store, ...differs]
        const refused = await refusal(spawnServer(args))
        const lines = refused.trim().split('\n')
        expect(lines[0]).toMatch(/^server exited with 2: petstore-mock: this replica's configuration differs/)
        // One line per difference, and only the one that differs.
        expect(lines.slice(1, -1)).toHaveLength(1)
        if (typeof line === 'string') expect(lines[1]).toBe(`  ${line}`)
        else expect(lines[1]).toMatch(line)
        expect(refused).not.toContain('only-this')
        expect(lines.at(-1)).toMatch(/--reconfigure/)
        const reconfigured = await spawnServer([...args, '--reconfigure'])
        try {
          const option = lines[1]!.trim().split(':')[0]
          expect(reconfigured.stderr()).toContain(
            `  fleet: --reconfigure made this replica's options the fleet's (changed: ${option}); restart the other replicas with them\n`,
          )
          expect((await fetch(`${reconfigured.url}/__admin/health/ready`)).status).toBe(200)
        } finally {
          expect(await reconfigured.stop()).toBe(0)
        }
        // The fleet is now the reconfigured one's: the first replica's options are the different ones.
        const again = await refusal(spawnServer(store))
        expect(again).toMatch(/^server exited with 2: /)
      } finally {
        await first.stop()
      }
    },
  )

  it('two API keys in another order, or the same tokens, are the same configuration; a secret never appears', async () => {
    const store = ['--store', redis.url, '--store-prefix', `cmd${++prefixes}`, '--log', 'silent']
    const first = await spawnServer([...store, '--api-key', 'k-one', '--api-key', 'k-two', '--admin-token', 'adm-1'])
    try {
      const second = await spawnServer([...store, '--api-key', 'k-two', '--api-key', 'k-one', '--admin-token', 'adm-1'])
      expect(await second.stop()).toBe(0)
      const refused = await refusal(spawnServer([...store, '--api-key', 'k-one', '--admin-token', 'adm-2']))
      const lines = refused.trim().split('\n').slice(1, -1)
      expect(lines).toEqual([
        expect.stringMatching(
          /^ {2}admin-token: this replica's "sha256:[0-9a-f]{12}", the fleet's "sha256:[0-9a-f]{12}"$/,
        ),
        expect.stringMatching(/^ {2}api-key: this replica's "sha256:[0-9a-f]{12}", the fleet's "sha256:[0-9a-f]{12}"$/),
      ])
      for (const secret of ['k-one', 'k-two', 'adm-1', 'adm-2']) expect(refused).not.toContain(secret)
      const record = await withClient((client) => client.hgetall(`${store[3]}:config`))
      for (const secret of ['k-one', 'k-two', 'adm-1']) expect(JSON.stringify(record)).not.toContain(secret)
    } finally {
      await first.stop()
    }
  })

  it('versions the layout: 4 without tenants (0.2.0 serves it too), 5 with; refuses a newer one', async () => {
    const prefix = `fleet${++prefixes}`
    await openRedisStore({ url: redis.url, prefix, fleet: { options: {}, reconfigure: false } })
    expect(await withClient((client) => client.get(`${prefix}:schema`))).toBe('4')
    await openRedisStore({
      url: redis.url,
      prefix,
      fleet: { options: { tenants: 'sha256:0123456789ab' }, reconfigure: true },
    })
    expect(await withClient((client) => client.get(`${prefix}:schema`))).toBe(String(storeSchemaVersion))
    await withClient((client) => client.set(`${prefix}:schema`, String(storeSchemaVersion + 1)))
    await expect(
      openRedisStore({ url: redis.url, prefix, fleet: { options: {}, reconfigure: false } }),
    ).rejects.toThrow(
      `the Redis layout at prefix ${prefix} is version ${storeSchemaVersion + 1}, newer than this replica's ${storeSchemaVersion}`,
    )
  })
})

/** The message of a start that must fail (the test fails if it starts). */
const refusal = (start: ReturnType<typeof spawnServer>): Promise<string> =>
  start.then(
    async (server) => {
      await server.stop()
      throw new Error('the replica started')
    },
    (error: Error) => error.message,
  )
