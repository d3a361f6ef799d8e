import { Redis } from 'ioredis'
import { startRedis } from '../../test/helpers/redis-server.js'
import { spawnServer } from '../../test/helpers/spawn-server.js'
import { bearer } from '../../test/helpers/auth.js'

// The Redis footprint of the memory budget (issue 41 §2): how many bytes of Redis' used_memory each
// byte the budget counts takes, by workload, on a real redis-server (no maxmemory) with one replica
// (--max-memory 512, so that nothing is refused). `npx vite-node tools/bench/redis-footprint.ts`
// (after `npm run build`). The clamp of the budget (src/node/store/redis/redis-footprint.ts) uses the
// largest ratio measured, rounded up; docs/scale-out.md has the figures.

const MiB = 2 ** 20
const auth = { ...bearer(), 'Content-Type': 'application/json' }

const redis = await startRedis()
const client = new Redis(redis.url)
const server = await spawnServer(['--store', redis.url, '--log', 'silent', '--max-memory', '512'])

const usedMemory = async (): Promise<number> => Number(/used_memory:([0-9]+)/.exec(await client.info('memory'))![1])
const counted = async (): Promise<{ used: number; journal: number }> => {
  const health = (await (await fetch(`${server.url}/__admin/health`)).json()) as {
    memory: { usedBytes: number; journal: { usedBytes: number } }
  }
  return { used: health.memory.usedBytes, journal: health.memory.journal.usedBytes }
}
const send = async (path: string, session: string, init: RequestInit = {}): Promise<number> =>
  (await fetch(`${server.url}${path}`, { ...init, headers: { ...auth, 'X-Mock-Session': session } })).status

/** Runs `work`, then tells what it added to Redis and to the budget's count. */
const measure = async (name: string, work: () => Promise<void>): Promise<number> => {
  const before = { redis: await usedMemory(), ...(await counted()) }
  await work()
  const after = { redis: await usedMemory(), ...(await counted()) }
  const redisBytes = after.redis - before.redis
  const countedBytes = after.used - before.used
  const ratio = redisBytes / countedBytes
  console.log(
    `${name}: Redis +${(redisBytes / MiB).toFixed(1)} MiB, counted +${(countedBytes / MiB).toFixed(1)} MiB ` +
      `(journal +${((after.journal - before.journal) / MiB).toFixed(1)} MiB): ratio ${ratio.toFixed(2)}`,
  )
  return ratio
}

const ratios: number[] = []
try {
  // Pets by seed: 20 sessions of 5,000 pets (faker), no journal to speak of.
  ratios.push(
    await measure('seeds (20 sessions x 5,000 pets)', async () => {
      for (let i = 0; i < 20; i++) {
        const status = await send('/__admin/seed', `seed-${i}`, {
          method: 'POST',
          body: JSON.stringify({ count: 5000 }),
        })
        if (status !== 204) throw new Error(`seed ${i}: ${status}`)
      }
    }),
  )
  // Creates: a pet and a journal entry (request and answer bodies) each, 8 at a time.
  ratios.push(
    await measure('creates (20,000 POST /v1/pets in 20 sessions)', async () => {
      for (let i = 0; i < 2500; i++) {
        const statuses = await Promise.all(
          Array.from({ length: 8 }, (_, k) =>
            send('/v1/pets', `create-${(i * 8 + k) % 20}`, {
              method: 'POST',
              body: JSON.stringify({ name: `Pet ${i}-${k}`, categoryId: 1, tags: ['a', 'b'] }),
            }),
          ),
        )
        if (statuses.some((status) => status !== 201)) throw new Error(`create ${i}: ${statuses.join()}`)
      }
    }),
  )
  // Sessions: 40 made by one read each (the start world copied, the session's own cost counted).
  ratios.push(
    await measure('sessions (40 made by a read)', async () => {
      for (let i = 0; i < 40; i++) {
        const status = await send('/v1/pets?limit=1', `session-${i}`)
        if (status !== 200) throw new Error(`session ${i}: ${status}`)
      }
    }),
  )
  // Reads: journal entries only (a list's answer each), in the 40 sessions just made.
  ratios.push(
    await measure('reads (20,000 GET /v1/pets in 40 sessions)', async () => {
      for (let i = 0; i < 2500; i++) {
        const statuses = await Promise.all(
          Array.from({ length: 8 }, (_, k) => send('/v1/pets?limit=20', `session-${(i * 8 + k) % 40}`)),
        )
        if (statuses.some((status) => status !== 200)) throw new Error(`read ${i}: ${statuses.join()}`)
      }
    }),
  )
  console.log(`largest ratio: ${Math.max(...ratios).toFixed(2)}`)
} finally {
  client.disconnect()
  await server.stop('SIGKILL')
  await redis.dispose()
}
