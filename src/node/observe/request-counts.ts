import { type AnswerSource, answerSources, type RequestObserver } from '../../core/observe/observer.js'
import { type RefusalReason, refusalReasons } from '../../core/observe/refusal-reason.js'

/**
 * The latency histogram's upper bounds, seconds: from a fast answer (half a millisecond) to the
 * longest injected latency (60 s, fault-rules.ts's maxDelayMs). 17 buckets with +Inf.
 */
export const latencyBuckets: readonly number[] = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
]

/** Statuses are counted in a table indexed by status: 0 (reset) to 599. */
const statusSlots = 600

/** One operation's counts: by status and source, and the latency histogram. */
export class OperationCounts {
  /** Per status (index), the count by source (index in answerSources); undefined until seen. */
  readonly byStatus: (Float64Array | undefined)[] = new Array<Float64Array | undefined>(statusSlots).fill(undefined)
  /** Per bucket of {@link latencyBuckets}, not cumulative; the last is +Inf. */
  readonly buckets = new Float64Array(latencyBuckets.length + 1)
  sum = 0
  count = 0

  constructor(readonly operation: string | null) {}

  add(status: number, source: AnswerSource, seconds: number): void {
    const slot = status >= 0 && status < statusSlots ? status : statusSlots - 1
    const cells = this.byStatus[slot] ?? (this.byStatus[slot] = new Float64Array(answerSources.length))
    cells[source === 'contract' ? 0 : source === 'rule' ? 1 : source === 'prefer' ? 2 : 3]!++
    let bucket = 0
    while (bucket < latencyBuckets.length && seconds > latencyBuckets[bucket]!) bucket++
    this.buckets[bucket]!++
    this.sum += seconds
    this.count++
  }
}

/**
 * One tenant's counts (`''`: the sessions of no tenant): its /v1 answers by status, its refusals
 * by reason, its sessions dropped. Keyed by the tenant's name, which only the tenants file gives:
 * the series stay bounded by the file, whatever sessions clients name.
 */
export class TenantCounts {
  /** Per status (index, 0 to 599), the answers; undefined until seen. */
  readonly byStatus = new Map<number, number>()
  /** Per reason (index in refusalReasons). */
  readonly refusals = new Float64Array(refusalReasons.length)
  sessionsDropped = 0

  constructor(readonly tenant: string) {}
}

/**
 * The request observer of the Node host's metrics: plain counts, kept from the first request on,
 * read by the Prometheus registry at each scrape (prometheus.ts). A request costs a lookup of its
 * operation (the last one is remembered), two increments in preallocated arrays and a short scan
 * of the buckets: no label object, no string built, nothing from prom-client, which is loaded only
 * when first scraped.
 */
export class RequestCounts implements RequestObserver {
  readonly #operations = new Map<string | null, OperationCounts>()
  #last: OperationCounts | undefined

  answered(operation: string | null, status: number, source: AnswerSource, seconds: number): void {
    let counts = this.#last
    if (counts === undefined || counts.operation !== operation) {
      counts = this.#operations.get(operation)
      if (counts === undefined) this.#operations.set(operation, (counts = new OperationCounts(operation)))
      this.#last = counts
    }
    counts.add(status, source, seconds)
  }

  /** Every operation seen so far, in the order first seen. */
  operations(): IterableIterator<OperationCounts> {
    return this.#operations.values()
  }

  readonly #tenants = new Map<string, TenantCounts>()

  #tenant(tenant: string): TenantCounts {
    let counts = this.#tenants.get(tenant)
    if (counts === undefined) this.#tenants.set(tenant, (counts = new TenantCounts(tenant)))
    return counts
  }

  tenantAnswered(tenant: string, status: number): void {
    const { byStatus } = this.#tenant(tenant)
    const slot = status >= 0 && status < statusSlots ? status : statusSlots - 1
    byStatus.set(slot, (byStatus.get(slot) ?? 0) + 1)
  }

  refused(tenant: string, reason: RefusalReason): void {
    this.#tenant(tenant).refusals[refusalReasons.indexOf(reason)]!++
  }

  sessionDropped(tenant: string): void {
    this.#tenant(tenant).sessionsDropped++
  }

  /** Every tenant seen so far (`''`: no tenant), in the order first seen. */
  tenants(): IterableIterator<TenantCounts> {
    return this.#tenants.values()
  }
}
