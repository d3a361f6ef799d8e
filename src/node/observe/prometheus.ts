import { collectDefaultMetrics, Counter, Gauge, type Metric, Registry } from 'prom-client'
import { answerSources, type StateSizes } from '../../core/observe/observer.js'
import { refusalReasons } from '../../core/observe/refusal-reason.js'
import type { ProxyStats } from '../../core/proxy/proxy-stats.js'
import { journalStoreFullDrops, storeErrors, type StoreErrorKind } from '../store/errors/store-errors.js'
import { latencyBuckets, type RequestCounts } from './request-counts.js'

/** What the registry reads at each scrape. */
export interface RegistrySources {
  requests: RequestCounts
  version: string
  /** `memory`, or `redis` (the store's errors are then counted). */
  store: 'memory' | 'redis'
  /** With --proxy: its counts. */
  proxy?: ProxyStats
  /**
   * The memory budget's use, 0 to 1 (`petstore_mock_memory_budget_used_ratio`): the hook for the
   * budget another issue adds; no budget exists yet, so nothing passes it and the series is absent.
   */
}

/** The series' names (docs/reference/metrics.md describes each, its labels and cardinality). */
export const metricNames = {
  requests: 'petstore_mock_requests_total',
  duration: 'petstore_mock_request_duration_seconds',
  sessions: 'petstore_mock_sessions',
  pets: 'petstore_mock_pets',
  journalEntries: 'petstore_mock_journal_entries',
  faultRules: 'petstore_mock_fault_rules',
  eventStreams: 'petstore_mock_event_streams',
  storeErrors: 'petstore_mock_store_errors_total',
  proxyForwarded: 'petstore_mock_proxy_forwarded_total',
  proxyViolations: 'petstore_mock_proxy_violations_total',
  memoryBudget: 'petstore_mock_memory_budget_used_ratio',
  memoryUsed: 'petstore_mock_memory_used_bytes',
  memoryBudgetBytes: 'petstore_mock_memory_budget_bytes',
  info: 'petstore_mock_info',
  tenantRequests: 'petstore_mock_tenant_requests_total',
  refusals: 'petstore_mock_refusals_total',
  sessionsDropped: 'petstore_mock_sessions_dropped_total',
  journalDropped: 'petstore_mock_journal_dropped_total',
  quotaUsed: 'petstore_mock_tenant_quota_used',
  quotaLimit: 'petstore_mock_tenant_quota_limit',
  storeWritable: 'petstore_mock_store_writable',
} as const

/** The label value of requests outside the contract's operations (404, 405, OPTIONS under /v1). */
export const unmatchedOperation = 'unmatched'

const shared = (what: string, store: 'memory' | 'redis'): string =>
  store === 'redis'
    ? `${what}. Shared state: every replica on the store reports the same value; aggregate with max(), not sum().`
    : `${what}.`

/** One value of a histogram as prom-client's registry writes it. */
interface HistogramValue {
  metricName: string
  labels: Record<string, string | number>
  value: number
}

/**
 * The latency histogram as a metric of prom-client's registry: prom-client writes it (names,
 * labels, escaping, numbers), from the counts of {@link RequestCounts}. Not prom-client's own
 * Histogram: that one is fed one observation at a time, and the counts are kept on the request
 * path before prom-client is even loaded (request-counts.ts).
 */
class LatencyHistogram {
  readonly name = metricNames.duration
  readonly help =
    'Time from a /v1 request entering the pipeline to its answer (injected latency included), per operation, on this replica.'
  readonly type = 'histogram'
  readonly aggregator = 'sum'
  readonly labelNames = ['operation']

  constructor(private readonly requests: RequestCounts) {}

  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: HistogramValue[] }> {
    const values: HistogramValue[] = []
    for (const counts of this.requests.operations()) {
      const operation = counts.operation ?? unmatchedOperation
      let cumulative = 0
      latencyBuckets.forEach((bound, i) => {
        cumulative += counts.buckets[i]!
        values.push({ metricName: `${this.name}_bucket`, labels: { operation, le: bound }, value: cumulative })
      })
      values.push({ metricName: `${this.name}_bucket`, labels: { operation, le: '+Inf' }, value: counts.count })
      values.push({ metricName: `${this.name}_sum`, labels: { operation }, value: counts.sum })
      values.push({ metricName: `${this.name}_count`, labels: { operation }, value: counts.count })
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values }
  }

  reset(): void {}
}

/** The registry of one process, and how a scrape reads it. */
export interface MetricsRegistry {
  contentType: string
  /** The exposition text; `sizes` as just read (undefined: the store could not be read, the gauges are NaN). */
  scrape(sizes: StateSizes | undefined): Promise<string>
}

/**
 * Builds the Prometheus registry: the process's own defaults (collectDefaultMetrics: CPU, memory,
 * heap, GC, event-loop lag, from now on), the traffic of this replica, the state's sizes as read at
 * the scrape, the store's errors, the proxy's counts. Loaded at the first scrape only.
 */
export const createRegistry = (sources: RegistrySources): MetricsRegistry => {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const { requests, store } = sources

  new Gauge({
    name: metricNames.info,
    help: 'Always 1: the version and the store of this replica.',
    labelNames: ['version', 'store'],
    registers: [registry],
  }).set({ version: sources.version, store }, 1)

  new Counter({
    name: metricNames.requests,
    help: 'Answered /v1 requests on this replica, by operation, status (0: connection reset) and what shaped the answer (contract, rule, prefer, proxy).',
    labelNames: ['operation', 'status', 'shaped_by'],
    registers: [registry],
    collect() {
      this.reset()
      for (const counts of requests.operations()) {
        const operation = counts.operation ?? unmatchedOperation
        counts.byStatus.forEach((cells, status) => {
          cells?.forEach((n, source) => {
            if (n > 0) this.inc({ operation, status, shaped_by: answerSources[source]! }, n)
          })
        })
      }
    },
  })
  registry.registerMetric(new LatencyHistogram(requests) as unknown as Metric)

  new Counter({
    name: metricNames.tenantRequests,
    help: 'Answered /v1 requests on this replica, by tenant (the tenants file\'s names; "" for sessions of no tenant) and status. Only with --tenants.',
    labelNames: ['tenant', 'status'],
    registers: [registry],
    collect() {
      this.reset()
      for (const counts of requests.tenants()) {
        counts.byStatus.forEach((n, status) => this.inc({ tenant: counts.tenant, status }, n))
      }
    },
  })
  new Counter({
    name: metricNames.refusals,
    help: 'Requests the mock refused on this replica (/v1 and /__admin), by tenant ("" for none) and reason: sessions_quota, memory_quota, streams_quota, held_quota (a tenant at its quota), session_cap (--max-sessions or the share of no tenant), memory_budget (--max-memory), capacity (--max-pets, fault rules), streams_cap, rate_limit, unauthorized (401), session_forbidden, forbidden (403).',
    labelNames: ['tenant', 'reason'],
    registers: [registry],
    collect() {
      this.reset()
      for (const counts of requests.tenants()) {
        counts.refusals.forEach((n, i) => {
          if (n > 0) this.inc({ tenant: counts.tenant, reason: refusalReasons[i]! }, n)
        })
      }
    },
  })
  new Counter({
    name: metricNames.sessionsDropped,
    help: 'Sessions this replica dropped after their idle time (--session-ttl), by tenant ("" for none).',
    labelNames: ['tenant'],
    registers: [registry],
    collect() {
      this.reset()
      for (const counts of requests.tenants()) {
        if (counts.sessionsDropped > 0) this.inc({ tenant: counts.tenant }, counts.sessionsDropped)
      }
    },
  })

  let sizes: StateSizes | undefined
  new Counter({
    name: metricNames.journalDropped,
    help: shared(
      'Journal entries dropped (a journal\'s oldest, beyond its size or its tenant\'s quota.journalMiB) since the start, by tenant ("" for none); with reason="store_full": entries this replica could not write, Redis at its maxmemory (per replica: sum())',
      store,
    ),
    labelNames: ['tenant', 'reason'],
    registers: [registry],
    collect() {
      this.reset()
      for (const { tenant, entries } of sizes?.journalDrops ?? []) if (entries > 0) this.inc({ tenant }, entries)
      // Entries this replica could not write, Redis at its maxmemory (issue 41): per replica, sum().
      for (const [tenant, entries] of journalStoreFullDrops) this.inc({ tenant, reason: 'store_full' }, entries)
    },
  })
  const quotaGauge = (name: string, help: string, read: 'used' | 'limit') =>
    new Gauge({
      name,
      help,
      labelNames: ['tenant', 'pool'],
      registers: [registry],
      collect() {
        this.reset()
        for (const use of sizes?.tenantPools ?? []) this.set({ tenant: use.tenant, pool: use.pool }, use[read])
      },
    })
  quotaGauge(
    metricNames.quotaUsed,
    store === 'redis'
      ? 'Each tenant\'s use of each pool its quota reserves (sessions, streams, held requests in units; memory and journal in bytes); tenant "" is the share of no tenant. Sessions, memory and journal: shared state, the same on every replica (aggregate with max()); streams and held: this replica\'s.'
      : 'Each tenant\'s use of each pool its quota reserves (sessions, streams, held requests in units; memory and journal in bytes); tenant "" is the share of no tenant.',
    'used',
  )
  quotaGauge(
    metricNames.quotaLimit,
    'Each tenant\'s quota of each pool (the tenants file; memory and journal in bytes); tenant "" is what no tenant reserved.',
    'limit',
  )
  const sizeGauge = (name: string, help: string, read: (sizes: StateSizes) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(sizes === undefined ? Number.NaN : read(sizes))
      },
    })
  sizeGauge(metricNames.sessions, shared('Sessions held', store), (s) => s.sessions)
  sizeGauge(metricNames.pets, shared("Pets held, every session's together", store), (s) => s.pets)
  sizeGauge(
    metricNames.journalEntries,
    shared("Journal entries held, every session's together", store),
    (s) => s.journalEntries,
  )
  sizeGauge(
    metricNames.faultRules,
    shared("Fault rules installed, every session's together", store),
    (s) => s.faultRules,
  )
  sizeGauge(
    metricNames.eventStreams,
    'Event streams (GET /__admin/requests/stream) open on this replica.',
    (s) => s.eventStreams,
  )

  if (store === 'redis') {
    new Counter({
      name: metricNames.storeErrors,
      help: 'Failed calls of this replica to the store (Redis), by kind: timeout (no answer within 2 s), unreachable (no connection), refused (an error reply).',
      labelNames: ['kind'],
      registers: [registry],
      collect() {
        this.reset()
        for (const kind of Object.keys(storeErrors) as StoreErrorKind[]) this.inc({ kind }, storeErrors[kind])
      },
    })
  }

  if (store === 'redis') {
    new Gauge({
      name: metricNames.storeWritable,
      help: 'Whether the store (Redis) takes writes now, as this replica finds it at the scrape: 1, or 0 while it refuses them (its maxmemory: reads go on, writes 507).',
      registers: [registry],
      collect() {
        this.set(sizes?.storeWritable === undefined ? Number.NaN : Number(sizes.storeWritable))
      },
    })
  }

  const { proxy } = sources
  if (proxy) {
    new Counter({
      name: metricNames.proxyForwarded,
      help: 'Requests this replica forwarded to the deployment (--proxy), answered by it or not (502, 504).',
      registers: [registry],
      collect() {
        this.reset()
        this.inc(proxy.report().forwarded)
      },
    })
    new Counter({
      name: metricNames.proxyViolations,
      help: 'Contract violations of proxied exchanges on this replica, by operation (request: a path the contract does not have).',
      labelNames: ['operation'],
      registers: [registry],
      collect() {
        this.reset()
        for (const [operation, n] of Object.entries(proxy.report().violations)) this.inc({ operation }, n)
      },
    })
  }

  // The memory budget (budget/): registered at the first scrape whose sizes carry it (the budget's
  // gauges only when there is one), so that a host without it shows none of these series.
  const memoryGauge = (name: string, help: string, read: (memory: NonNullable<StateSizes['memory']>) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(sizes?.memory === undefined ? Number.NaN : read(sizes.memory))
      },
    })
  let memoryShown = false
  const showMemory = (memory: StateSizes['memory']): void => {
    if (memoryShown || memory === undefined) return
    memoryShown = true
    memoryGauge(metricNames.memoryUsed, shared('Bytes the memory budget counts as held', store), (m) => m.usedBytes)
    if (memory.budgetBytes === null) return
    memoryGauge(metricNames.memoryBudgetBytes, 'The memory budget, bytes.', (m) => m.budgetBytes ?? Number.NaN)
    memoryGauge(
      metricNames.memoryBudget,
      shared('Use of the fullest share of the memory budget that refuses writes, 0 to 1 (507 at 1)', store),
      (m) => m.usedRatio ?? (m.budgetBytes ? m.usedBytes / m.budgetBytes : Number.NaN),
    )
  }
  return {
    contentType: registry.contentType,
    scrape: (read) => {
      sizes = read
      showMemory(read?.memory)
      return registry.metrics()
    },
  }
}
