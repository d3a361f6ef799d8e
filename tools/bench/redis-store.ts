// The Redis store in `npm run bench` (issue 22): one replica on Redis against one in memory, in the
// same run and in turn (rounds), the Redis round trips of each operation, and two replicas on one
// Redis against one. Debian's redis-server on a loopback port of its own, stopped by PID.
import { Redis } from 'ioredis'
import { startRedis } from '../../test/helpers/redis-server.js'
import { type LoadResult, type LoadSpec, runLoad, standardLoads } from './load.js'
import { startServer } from './server-process.js'

/** The budgets of issue 22, as ratios to the memory store measured in the same run. */
export const redisBudget = { listGet: 0.4, create: 0.3, p99Ms: 10 }

type Row = (section: string, figure: string, value: string, ratio?: string, budget?: string, pass?: boolean) => void

const loadText = (r: LoadResult) => `${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non-2xx ${r.non2xx + r.errors}`
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/**
 * Commands one request sends to Redis when it is alone, read with MONITOR: its round trips (a script
 * counts once: what runs inside it is not a round trip). Reads: the selection with the read named
 * ahead, then the journal entry (getPet's deprecation count rides with it); create: one more.
 */
const roundTrips = async (redisUrl: string, url: string, load: LoadSpec, count = 200): Promise<number> => {
  const client = new Redis(redisUrl)
  const monitor = await client.monitor()
  let commands = 0
  monitor.on('monitor', (_time: string, _args: string[], source: string) => {
    if (!source.includes('lua')) commands++
  })
  // MONITOR sees what was sent after it started: give it a moment, then count `count` requests.
  await new Promise((resolve) => setTimeout(resolve, 200))
  const [request] = load.requests
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${url}${request!.path}`, {
      method: request!.method,
      headers: request!.headers ?? {},
      ...(request!.body !== undefined && { body: request!.body }),
    })
    await res.arrayBuffer()
  }
  await new Promise((resolve) => setTimeout(resolve, 200))
  monitor.disconnect()
  client.disconnect()
  return commands / count
}

/** The Redis store's section of the bench. */
export const redisStore = async (row: Row, seconds: number, rounds: number): Promise<Record<string, unknown>> => {
  const redis = await startRedis()
  const results: Record<string, unknown> = {}
  const args = ['--log', 'silent', '--max-pets', '5000000']
  const memory = await startServer(args)
  const onRedis = await startServer([...args, '--store', redis.url, '--store-prefix', 'bench'])
  const second = await startServer([...args, '--store', redis.url, '--store-prefix', 'bench'])
  try {
    const measure = async (url: string, load: LoadSpec) => {
      await runLoad(url, load, { seconds: 1 })
      return runLoad(url, load, { seconds })
    }
    const stats = new Redis(redis.url)
    const scriptCalls = async () =>
      Number(/^cmdstat_evalsha:calls=(\d+)/m.exec(await stats.info('commandstats'))?.[1] ?? 0)
    for (const load of standardLoads(5)) {
      const pairs: { memory: LoadResult; redis: LoadResult }[] = []
      let commands = 0
      let requests = 0
      for (let i = 0; i < rounds; i++) {
        const memoryResult = await measure(memory.url, load)
        const before = await scriptCalls()
        const redisResult = await measure(onRedis.url, load)
        commands += (await scriptCalls()) - before
        // The warm-up second is in the count too: requests as measured, plus one second's worth.
        requests += redisResult.rps * (seconds + 1)
        pairs.push({ memory: memoryResult, redis: redisResult })
      }
      const ratios = pairs.map((p) => p.redis.rps / p.memory.rps)
      const ratio = median(ratios)
      const p99 = Math.max(...pairs.map((p) => p.redis.p99))
      const bad = pairs.reduce((sum, p) => sum + p.redis.non2xx + p.redis.errors, 0)
      const ours = [...pairs].sort((a, b) => a.redis.rps - b.redis.rps)[Math.floor(pairs.length / 2)]!.redis
      const base = [...pairs].sort((a, b) => a.memory.rps - b.memory.rps)[Math.floor(pairs.length / 2)]!.memory
      const min = load.name === 'POST /v1/pets' ? redisBudget.create : redisBudget.listGet
      row('redis store', `memory: ${load.name}`, loadText(base))
      row(
        'redis store',
        `redis: ${load.name}`,
        loadText(ours),
        `${Math.round(100 * ratio)} % of memory [${ratios.map((r) => Math.round(100 * r)).join(', ')}]`,
        `≥ ${min * 100} %, p99 ≤ ${redisBudget.p99Ms} ms, non-2xx 0`,
        ratio >= min && p99 <= redisBudget.p99Ms && bad === 0,
      )
      const perRequest = commands / requests
      row(
        'redis store',
        `commands per request under load: ${load.name}`,
        `≈ ${perRequest.toFixed(2)} (batches of the calls of one turn)`,
      )
      results[load.name] = { memory: base, redis: ours, ratio, ratios, p99, bad, commandsPerRequest: perRequest }
    }
    stats.disconnect()
    for (const load of standardLoads(5)) {
      const trips = await roundTrips(redis.url, onRedis.url, load)
      row('redis store', `round trips per request: ${load.name}`, trips.toFixed(2))
      results[`roundTrips ${load.name}`] = trips
    }
    // Two replicas on one Redis, each under its own load at once, against one alone.
    const [get] = standardLoads(5).filter((l) => l.name === 'GET /v1/pets/{id}')
    const one = await measure(onRedis.url, get!)
    const both = await Promise.all([measure(onRedis.url, get!), measure(second.url, get!)])
    const sum = both[0].rps + both[1].rps
    row('redis store', 'GET /v1/pets/{id}, one replica', loadText(one))
    row(
      'redis store',
      'GET /v1/pets/{id}, two replicas at once (sum)',
      `${sum} req/s (${both[0].rps} + ${both[1].rps}), p99 ${Math.max(both[0].p99, both[1].p99)} ms`,
      `${(sum / one.rps).toFixed(2)}× one replica (2 cores shared by Redis, both replicas and the load generator)`,
    )
    results['twoReplicas'] = { one, both, ratio: sum / one.rps }
  } finally {
    await Promise.all([memory.stop(), onRedis.stop(), second.stop()])
    await redis.dispose()
  }
  return results
}
