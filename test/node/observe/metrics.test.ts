import { afterEach, describe, expect, it } from 'vitest'
import { ProxyStats } from '../../../src/core/proxy/proxy-stats.js'
import type { StateSizes } from '../../../src/core/observe/observer.js'
import { hostMetrics } from '../../../src/node/observe/host-metrics.js'
import { createRegistry, metricNames } from '../../../src/node/observe/prometheus.js'
import { latencyBuckets, RequestCounts } from '../../../src/node/observe/request-counts.js'
import { countStoreError, storeErrors } from '../../../src/node/store/errors/store-errors.js'

const sizes: StateSizes = { sessions: 3, pets: 40, journalEntries: 25, faultRules: 2, eventStreams: 1 }

/** The samples of an exposition text, `name{labels}` → value, and its HELP and TYPE lines by name. */
const parse = (text: string) => {
  const samples = new Map<string, number>()
  const help = new Map<string, string>()
  const type = new Map<string, string>()
  for (const line of text.split('\n')) {
    const comment = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line)
    if (comment) (comment[1] === 'HELP' ? help : type).set(comment[2]!, comment[3]!)
    else if (line !== '') {
      const at = line.lastIndexOf(' ')
      samples.set(line.slice(0, at), Number(line.slice(at + 1)))
    }
  }
  return { samples, help, type }
}

const restoreStoreErrors = { ...storeErrors }
afterEach(() => Object.assign(storeErrors, restoreStoreErrors))

describe('RequestCounts', () => {
  it('counts by operation, status and source, and buckets the seconds (not cumulative; the last bucket is +Inf)', () => {
    const counts = new RequestCounts()
    counts.answered('listPets', 200, 'contract', 0.0004)
    counts.answered('listPets', 200, 'contract', 0.003)
    counts.answered('getPet', 503, 'rule', 0.2)
    counts.answered('listPets', 500, 'prefer', 100)
    counts.answered(null, 404, 'proxy', 0.001)
    const [list, get, unmatched] = [...counts.operations()]
    expect([list!.operation, get!.operation, unmatched!.operation]).toEqual(['listPets', 'getPet', null])
    expect([...list!.byStatus[200]!]).toEqual([2, 0, 0, 0])
    expect([...list!.byStatus[500]!]).toEqual([0, 0, 1, 0])
    expect([...get!.byStatus[503]!]).toEqual([0, 1, 0, 0])
    expect([...unmatched!.byStatus[404]!]).toEqual([0, 0, 0, 1])
    expect(list!.byStatus.filter(Boolean)).toHaveLength(2)
    expect(list!.count).toBe(3)
    expect(list!.sum).toBeCloseTo(100.0034)
    expect(list!.buckets[0]).toBe(1) // ≤ 0.5 ms
    expect(list!.buckets[latencyBuckets.indexOf(0.005)]).toBe(1)
    expect(list!.buckets[latencyBuckets.length]).toBe(1) // beyond 60 s: +Inf only
  })
})

describe('the Prometheus registry (prom-client)', () => {
  it('exposes the requests by operation, status and shaped_by, and a cumulative latency histogram per operation', async () => {
    const requests = new RequestCounts()
    requests.answered('getPet', 200, 'contract', 0.002)
    requests.answered('getPet', 200, 'contract', 0.02)
    requests.answered('getPet', 0, 'rule', 0.001)
    requests.answered(null, 405, 'contract', 0.0001)
    const registry = createRegistry({ requests, version: '9.9.9', store: 'memory' })
    const { samples, type } = parse(await registry.scrape(sizes))
    expect(registry.contentType).toBe('text/plain; version=0.0.4; charset=utf-8')
    expect(type.get(metricNames.requests)).toBe('counter')
    expect(type.get(metricNames.duration)).toBe('histogram')
    expect(samples.get('petstore_mock_requests_total{operation="getPet",status="200",shaped_by="contract"}')).toBe(2)
    expect(samples.get('petstore_mock_requests_total{operation="getPet",status="0",shaped_by="rule"}')).toBe(1)
    expect(samples.get('petstore_mock_requests_total{operation="unmatched",status="405",shaped_by="contract"}')).toBe(1)
    const bucket = (le: string) =>
      samples.get(`petstore_mock_request_duration_seconds_bucket{operation="getPet",le="${le}"}`)
    expect([
      bucket('0.0005'),
      bucket('0.001'),
      bucket('0.0025'),
      bucket('0.025'),
      bucket('60'),
      bucket('+Inf'),
    ]).toEqual([0, 1, 2, 3, 3, 3])
    expect(samples.get('petstore_mock_request_duration_seconds_count{operation="getPet"}')).toBe(3)
    expect(samples.get('petstore_mock_request_duration_seconds_sum{operation="getPet"}')).toBeCloseTo(0.023)
    expect(samples.get('petstore_mock_info{version="9.9.9",store="memory"}')).toBe(1)
  })

  it("reads the state's sizes at each scrape, NaN while the store cannot be read, and the process's defaults", async () => {
    const registry = createRegistry({ requests: new RequestCounts(), version: '1', store: 'memory' })
    const scraped = parse(await registry.scrape(sizes))
    const first = scraped.samples
    expect(
      [
        metricNames.sessions,
        metricNames.pets,
        metricNames.journalEntries,
        metricNames.faultRules,
        metricNames.eventStreams,
      ].map((name) => first.get(name)),
    ).toEqual([3, 40, 25, 2, 1])
    const unread = parse(await registry.scrape(undefined)).samples
    expect(unread.get(metricNames.pets)).toBeNaN()
    expect(unread.get(metricNames.sessions)).toBeNaN()
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
    ])
      expect(first.has(name), name).toBe(true)
    expect([...first.keys()].some((key) => key.startsWith('nodejs_eventloop_lag_seconds'))).toBe(true)
    // Its series appear with the first collection of each kind.
    expect(scraped.type.get('nodejs_gc_duration_seconds')).toBe('histogram')
    // Without a store of its own, a proxy or a memory budget: none of their series.
    for (const name of [metricNames.storeErrors, metricNames.proxyForwarded, metricNames.memoryBudget])
      expect(
        [...first.keys()].some((key) => key.startsWith(name)),
        name,
      ).toBe(false)
  })

  it('says in the help of the shared-state gauges that every replica on Redis reports the same value', async () => {
    const memory = parse(
      await createRegistry({ requests: new RequestCounts(), version: '1', store: 'memory' }).scrape(sizes),
    )
    const redis = parse(
      await createRegistry({ requests: new RequestCounts(), version: '1', store: 'redis' }).scrape(sizes),
    )
    for (const name of [metricNames.sessions, metricNames.pets, metricNames.journalEntries, metricNames.faultRules]) {
      expect(redis.help.get(name)).toMatch(
        /every replica on the store reports the same value; aggregate with max\(\), not sum\(\)/,
      )
      expect(memory.help.get(name)).not.toMatch(/replica/)
    }
    // Per replica: its own connections, its own traffic.
    expect(redis.help.get(metricNames.eventStreams)).toMatch(/on this replica/)
    expect(redis.help.get(metricNames.requests)).toMatch(/on this replica/)
  })

  it("counts the store's failed calls by kind on Redis", async () => {
    countStoreError('timeout')
    countStoreError('unreachable')
    countStoreError('unreachable')
    const { samples } = parse(
      await createRegistry({ requests: new RequestCounts(), version: '1', store: 'redis' }).scrape(sizes),
    )
    expect(samples.get('petstore_mock_store_errors_total{kind="timeout"}')).toBe(restoreStoreErrors.timeout + 1)
    expect(samples.get('petstore_mock_store_errors_total{kind="unreachable"}')).toBe(restoreStoreErrors.unreachable + 2)
    expect(samples.get('petstore_mock_store_errors_total{kind="refused"}')).toBe(restoreStoreErrors.refused)
  })

  it("counts the proxy's forwarded requests and its contract violations by operation", async () => {
    const proxy = new ProxyStats('http://upstream')
    proxy.count('listPets', 2)
    proxy.count('listPets', 0)
    proxy.count(undefined, 1)
    const { samples } = parse(
      await createRegistry({ requests: new RequestCounts(), version: '1', store: 'memory', proxy }).scrape(sizes),
    )
    expect(samples.get(metricNames.proxyForwarded)).toBe(3)
    expect(samples.get('petstore_mock_proxy_violations_total{operation="listPets"}')).toBe(2)
    expect(samples.get('petstore_mock_proxy_violations_total{operation="request"}')).toBe(1)
  })

  it('shows the memory budget and what it holds, from the sizes of the scrape; none without a budget', async () => {
    const registry = () => createRegistry({ requests: new RequestCounts(), version: '1', store: 'memory' })
    const held = parse(
      await registry().scrape({ ...sizes, memory: { usedBytes: 64 * 2 ** 20, budgetBytes: 256 * 2 ** 20 } }),
    )
    expect(held.samples.get(metricNames.memoryUsed)).toBe(64 * 2 ** 20)
    expect(held.samples.get(metricNames.memoryBudgetBytes)).toBe(256 * 2 ** 20)
    expect(held.samples.get(metricNames.memoryBudget)).toBe(0.25)
    expect(held.type.get(metricNames.memoryBudget)).toBe('gauge')
    const unbounded = parse(await registry().scrape({ ...sizes, memory: { usedBytes: 1024, budgetBytes: null } }))
    expect(unbounded.samples.get(metricNames.memoryUsed)).toBe(1024)
    expect(unbounded.samples.has(metricNames.memoryBudgetBytes)).toBe(false)
    expect(unbounded.samples.has(metricNames.memoryBudget)).toBe(false)
    expect(parse(await registry().scrape(sizes)).samples.has(metricNames.memoryUsed)).toBe(false)
  })

  it("reads the budget's ratio as its fullest refusing share, and each tenant's use against its quotas (issue 39)", async () => {
    const registry = createRegistry({ requests: new RequestCounts(), version: '1', store: 'memory' })
    const use = (tenant: string, sessions: number, memory: number) => ({
      tenant,
      sessions: { used: sessions, limit: 2 },
      memory: { usedBytes: memory, limitBytes: 8 * 2 ** 20 },
      journal: { usedBytes: 1000, limitBytes: 4 * 2 ** 20, entries: 3 },
    })
    const memory = {
      usedBytes: 16 * 2 ** 20,
      budgetBytes: 64 * 2 ** 20,
      usedRatio: 1,
      tenants: [use('team-a', 2, 8 * 2 ** 20), use('team-b', 1, 0)],
    }
    // The pools as state-sizes.ts reads them from the budget's report (and the streams and held shares).
    const tenantPools = memory.tenants.flatMap((u) => [
      { tenant: u.tenant, pool: 'sessions' as const, used: u.sessions.used, limit: u.sessions.limit },
      { tenant: u.tenant, pool: 'memory' as const, used: u.memory.usedBytes, limit: u.memory.limitBytes },
      { tenant: u.tenant, pool: 'journal' as const, used: u.journal.usedBytes, limit: u.journal.limitBytes },
    ])
    const { samples, type } = parse(await registry.scrape({ ...sizes, memory, tenantPools }))
    // 0.25 of the whole, but team A's share is full: its writes are refused.
    expect(samples.get(metricNames.memoryBudget)).toBe(1)
    expect(type.get(metricNames.quotaUsed)).toBe('gauge')
    expect(samples.get(`${metricNames.quotaUsed}{tenant="team-a",pool="sessions"}`)).toBe(2)
    expect(samples.get(`${metricNames.quotaUsed}{tenant="team-a",pool="memory"}`)).toBe(8 * 2 ** 20)
    expect(samples.get(`${metricNames.quotaUsed}{tenant="team-b",pool="journal"}`)).toBe(1000)
    expect(samples.get(`${metricNames.quotaLimit}{tenant="team-b",pool="sessions"}`)).toBe(2)
    expect(samples.get(`${metricNames.quotaLimit}{tenant="team-b",pool="journal"}`)).toBe(4 * 2 ** 20)
    // Without tenants: no sample of these series.
    const plain = parse(
      await createRegistry({ requests: new RequestCounts(), version: '1', store: 'memory' }).scrape({
        ...sizes,
        memory: { usedBytes: 1, budgetBytes: 4 },
      }),
    )
    expect([...plain.samples.keys()].filter((name) => name.startsWith(metricNames.quotaUsed))).toEqual([])
  })
})

describe('hostMetrics', () => {
  it('counts before the first scrape and scrapes with the sizes read then; NaN gauges when the store does not answer', async () => {
    const metrics = hostMetrics({ version: '1', store: 'memory' })
    metrics.requests.answered('listPets', 200, 'contract', 0.001)
    const scraped = await metrics.metrics({ sizes: async () => sizes })
    expect(scraped.contentType).toBe('text/plain; version=0.0.4; charset=utf-8')
    const { samples } = parse(scraped.body)
    expect(samples.get('petstore_mock_requests_total{operation="listPets",status="200",shaped_by="contract"}')).toBe(1)
    expect(samples.get(metricNames.pets)).toBe(40)
    const failed = parse((await metrics.metrics({ sizes: () => Promise.reject(new Error('away')) })).body).samples
    expect(failed.get(metricNames.pets)).toBeNaN()
    expect(failed.get('petstore_mock_requests_total{operation="listPets",status="200",shaped_by="contract"}')).toBe(1)
  })
})
