import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type PrometheusServer, type Sample, startPrometheus } from '../helpers/prometheus-server.js'
import { type RedisServer, startRedis } from '../helpers/redis-server.js'
import { startReplicas } from '../helpers/replicas.js'
import { type SpawnedServer, spawnServer } from '../helpers/spawn-server.js'
import { bearer } from '../helpers/auth.js'

// Debian's real prometheus scrapes running mocks (GET /__admin/metrics) every second, and PromQL
// through its HTTP API gives back what the test sent: one mock with an admin token, then three
// replicas on one Redis, whose sum is what was sent to all three (npm run test:prometheus, .ci/run).

/** `sum by (operation, status) (petstore_mock_requests_total)` as `operation status` → count. */
const byOperationAndStatus = (samples: Sample[]): Record<string, number> =>
  Object.fromEntries(samples.map((s) => [`${s.metric['operation']} ${s.metric['status']}`, s.value]))

/** Sends each request and checks its status; returns how many were sent, `operation status` → count. */
const send = async (
  url: string,
  requests: readonly { path: string; init?: RequestInit; status: number; key: string }[],
): Promise<Record<string, number>> => {
  const sent: Record<string, number> = {}
  for (const { path, init, status, key } of requests) {
    const res = await fetch(`${url}${path}`, { ...init, headers: { ...bearer(), ...init?.headers } })
    expect(res.status, `${init?.method ?? 'GET'} ${path}`).toBe(status)
    await res.arrayBuffer()
    sent[key] = (sent[key] ?? 0) + 1
  }
  return sent
}

const repeat = <T>(n: number, item: T): T[] => Array.from({ length: n }, () => item)

const add = (...counts: Record<string, number>[]): Record<string, number> => {
  const total: Record<string, number> = {}
  for (const count of counts) for (const [key, n] of Object.entries(count)) total[key] = (total[key] ?? 0) + n
  return total
}

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
})

describe('one mock scraped by Prometheus', () => {
  let mock: SpawnedServer
  let prometheus: PrometheusServer

  beforeAll(async () => {
    mock = await spawnServer(['--log', 'silent', '--admin-token', 'scrape-token'], {}, 15_000)
    prometheus = await startPrometheus([{ url: mock.url, token: 'scrape-token' }])
  }, 60_000)

  afterAll(async () => {
    await prometheus?.dispose()
    await mock?.stop()
  })

  it('PromQL gives back the requests sent, by operation and status, and how each was shaped', async () => {
    const sent = await send(mock.url, [
      ...repeat(5, { path: '/v1/pets?limit=3', status: 200, key: 'listPets 200' }),
      ...repeat(3, { path: '/v1/pets/1', status: 200, key: 'getPet 200' }),
      ...repeat(2, { path: '/v1/pets/404', status: 404, key: 'getPet 404' }),
      { path: '/v1/pets', init: json({ name: 'Scraped', categoryId: 1 }), status: 201, key: 'createPet 201' },
      ...repeat(2, { path: '/v1/pets', init: { headers: { Prefer: 'code=500' } }, status: 500, key: 'listPets 500' }),
      { path: '/v1/nowhere', status: 404, key: 'unmatched 404' },
    ])
    await prometheus.scrapedAfterNow()
    const scraped = byOperationAndStatus(
      await prometheus.query('sum by (operation, status) (petstore_mock_requests_total)'),
    )
    expect(scraped).toEqual(sent)
    const prefer = await prometheus.query('sum by (shaped_by) (petstore_mock_requests_total{status="500"})')
    expect(prefer).toEqual([{ metric: { shaped_by: 'prefer' }, value: 2 }])
    const durations = await prometheus.query('sum(petstore_mock_request_duration_seconds_count)')
    expect(durations[0]?.value).toBe(Object.values(sent).reduce((a, b) => a + b))
    expect((await prometheus.query('petstore_mock_pets'))[0]?.value).toBe(13)
    expect((await prometheus.query('up'))[0]?.value).toBe(1)
    // The process's own defaults are scraped too.
    expect((await prometheus.query('process_resident_memory_bytes'))[0]?.value).toBeGreaterThan(0)
  }, 60_000)
})

describe('one mock with the example tenants file scraped by Prometheus', () => {
  let mock: SpawnedServer
  let prometheus: PrometheusServer

  beforeAll(async () => {
    mock = await spawnServer(
      [
        '--log',
        'silent',
        '--tenants',
        fileURLToPath(new URL('../../examples/tenants/tenants.yaml', import.meta.url)),
        '--admin-token',
        'root-1',
        '--max-memory',
        '64',
      ],
      {},
      15_000,
    )
    prometheus = await startPrometheus([{ url: mock.url, token: 'root-1' }])
  }, 60_000)

  afterAll(async () => {
    await prometheus?.dispose()
    await mock?.stop()
  })

  it('PromQL gives back the requests and refusals by tenant, bounded by the file', async () => {
    const get = async (path: string, headers: Record<string, string>, status: number) => {
      const res = await fetch(`${mock.url}${path}`, { headers })
      expect(res.status, path).toBe(status)
      await res.arrayBuffer()
    }
    for (let i = 0; i < 3; i++) await get('/sessions/team-b-1/v1/pets', bearer('key-b-1'), 200)
    for (let i = 0; i < 2; i++) await get('/sessions/team-a-1/v1/pets', {}, 401)
    await get('/sessions/team-a-1/__admin/requests', bearer('not-a-token'), 401)
    await get('/v1/pets', {}, 401)
    await prometheus.scrapedAfterNow()
    const refusals = await prometheus.query('sum by (tenant, reason) (petstore_mock_refusals_total)')
    expect(
      Object.fromEntries(refusals.map((s) => [`${s.metric['tenant'] ?? ''} ${s.metric['reason']}`, s.value])),
    ).toEqual({ 'team-a unauthorized': 3, ' unauthorized': 1 })
    const requests = await prometheus.query('sum by (tenant, status) (petstore_mock_tenant_requests_total)')
    expect(
      Object.fromEntries(requests.map((s) => [`${s.metric['tenant'] ?? ''} ${s.metric['status']}`, s.value])),
    ).toEqual({ 'team-b 200': 3, 'team-a 401': 2, ' 401': 1 })
    // tenant="" is no label at all for Prometheus: the sessions of no tenant select as {tenant=""}.
    expect((await prometheus.query('sum(petstore_mock_refusals_total{tenant=""})'))[0]?.value).toBe(1)
    const tenants = await prometheus.query('count by (tenant) ({__name__=~"petstore_mock_.*", tenant!=""})')
    expect(tenants.map((s) => s.metric['tenant']).sort()).toEqual(['team-a', 'team-b'])
  }, 60_000)
})

describe('three replicas on one Redis scraped by Prometheus', () => {
  let redis: RedisServer
  let group: Awaited<ReturnType<typeof startReplicas>>
  let prometheus: PrometheusServer

  beforeAll(async () => {
    redis = await startRedis()
    group = await startReplicas(redis.url, 3)
    prometheus = await startPrometheus(group.replicas.map((r) => ({ url: r.url })))
  }, 60_000)

  afterAll(async () => {
    await prometheus?.dispose()
    await group?.stop()
    await redis?.dispose()
  })

  it('each replica counts its own traffic: the sum across them is what was sent; shared gauges are the same on each', async () => {
    const [a, b, c] = group.replicas.map((r) => r.url) as [string, string, string]
    const sent = add(
      await send(a, [
        ...repeat(4, { path: '/v1/pets', status: 200, key: 'listPets 200' }),
        { path: '/v1/pets', init: json({ name: 'A', categoryId: 1 }), status: 201, key: 'createPet 201' },
      ]),
      await send(b, [
        ...repeat(7, { path: '/v1/pets', status: 200, key: 'listPets 200' }),
        ...repeat(2, { path: '/v1/pets/999', status: 404, key: 'getPet 404' }),
      ]),
      await send(c, [
        ...repeat(2, { path: '/v1/pets/13', status: 200, key: 'getPet 200' }),
        { path: '/v1/pets', init: json({ name: 'C', categoryId: 2 }), status: 201, key: 'createPet 201' },
      ]),
    )
    await prometheus.scrapedAfterNow()
    expect(
      byOperationAndStatus(await prometheus.query('sum by (operation, status) (petstore_mock_requests_total)')),
    ).toEqual(sent)
    const perReplica = await prometheus.query('sum by (instance) (petstore_mock_requests_total)')
    expect(perReplica.map((s) => s.value).sort((x, y) => x - y)).toEqual([3, 5, 9])
    // Pets are shared state: each replica reports all 14; max() is the count, sum() counts it thrice.
    expect((await prometheus.query('max(petstore_mock_pets)'))[0]?.value).toBe(14)
    expect((await prometheus.query('min(petstore_mock_pets)'))[0]?.value).toBe(14)
    expect((await prometheus.query('sum(petstore_mock_pets)'))[0]?.value).toBe(42)
    expect((await prometheus.query('count(petstore_mock_info{store="redis"})'))[0]?.value).toBe(3)
    expect((await prometheus.query('sum(petstore_mock_store_errors_total)'))[0]?.value).toBe(0)
  }, 60_000)
})
