import { fileURLToPath } from 'node:url'
import { startServer } from './server-process.js'

/** Issue 39's fairness figure: team B's reads while team A floods, p99 (budget: 250 ms). */
export interface FairnessResult {
  reads: number
  p50Ms: number
  p99Ms: number
  floodRequests: number
}

const example = fileURLToPath(new URL('../../examples/tenants/tenants.yaml', import.meta.url))

const percentile = (sorted: number[], p: number): number => sorted[Math.max(0, Math.ceil(sorted.length * p) - 1)]!

/**
 * The example tenants file on one server: team A floods its own session with large POSTs (four at a
 * time, up to and beyond its journal and memory quotas), and team B reads its own session one request at a
 * time for `seconds`; B's read latency is what a team within its quotas sees while another is hostile.
 */
export const fairness = async (seconds: number): Promise<FairnessResult> => {
  const server = await startServer([
    '--tenants',
    example,
    '--admin-token',
    'root-1',
    '--max-memory',
    '64',
    '--log',
    'silent',
  ])
  const big = JSON.stringify({ name: 'x'.repeat(20_000), categoryId: 1 })
  const until = performance.now() + seconds * 1000
  let floodRequests = 0
  const flood = async () => {
    while (performance.now() < until) {
      const res = await fetch(`${server.url}/sessions/team-a-1/v1/pets`, {
        method: 'POST',
        headers: { authorization: 'Bearer key-a-1', 'content-type': 'application/json' },
        body: big,
      })
      await res.arrayBuffer()
      floodRequests++
    }
  }
  const latencies: number[] = []
  const read = async () => {
    while (performance.now() < until) {
      const started = performance.now()
      const res = await fetch(`${server.url}/sessions/team-b-1/v1/pets?limit=5`, {
        headers: { authorization: 'Bearer key-b-1' },
      })
      await res.arrayBuffer()
      if (res.status !== 200) throw new Error(`team B's read answered ${res.status}`)
      latencies.push(performance.now() - started)
    }
  }
  try {
    await Promise.all([flood(), flood(), flood(), flood(), read()])
  } finally {
    await server.stop()
  }
  const sorted = latencies.sort((a, b) => a - b)
  return { reads: sorted.length, p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99), floodRequests }
}
