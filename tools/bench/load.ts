import autocannon from 'autocannon'

/** One load: a request (or a cycle of requests) kept in flight by `connections` clients. */
export interface LoadSpec {
  name: string
  requests: { method: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string }[]
}

/** What a load measured. */
export interface LoadResult {
  rps: number
  p50: number
  p99: number
  non2xx: number
  errors: number
  /** Requests answered in the run (autocannon's total). */
  total: number
}

/** Who the loads' client is: its API key, and the path prefix of its session ('' for the default one). */
export interface LoadClient {
  key: string
  prefix: string
}

const benchClient: LoadClient = { key: 'bench-token', prefix: '' }

/** The four loads of the benchmark, as `client` (by default any key, in the default session). */
export const standardLoads = (petId: number, client: LoadClient = benchClient): LoadSpec[] => {
  const auth = { Authorization: `Bearer ${client.key}` }
  const at = (path: string) => `${client.prefix}${path}`
  return [
    { name: 'GET /v1/pets?limit=20', requests: [{ method: 'GET', path: at('/v1/pets?limit=20'), headers: auth }] },
    {
      name: 'GET /v1/pets?status=sold&limit=100',
      requests: [{ method: 'GET', path: at('/v1/pets?status=sold&limit=100'), headers: auth }],
    },
    { name: 'GET /v1/pets/{id}', requests: [{ method: 'GET', path: at(`/v1/pets/${petId}`), headers: auth }] },
    {
      name: 'POST /v1/pets',
      requests: [
        {
          method: 'POST',
          path: at('/v1/pets'),
          headers: { ...auth, 'Content-Type': 'application/json' },
          body: '{"name":"Bench","categoryId":3,"status":"available"}',
        },
      ],
    },
  ]
}

/** Runs a load; `amount` bounds it by request count instead of time. */
export const runLoad = async (
  url: string,
  load: LoadSpec,
  options: { seconds?: number; amount?: number; connections?: number } = {},
): Promise<LoadResult> => {
  const result = await autocannon({
    url,
    connections: options.connections ?? 50,
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.seconds ?? 10 }),
    requests: load.requests,
  })
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
  }
}
