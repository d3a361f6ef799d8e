import type { TenantUse } from '../budget/budget-report.js'
import type { Shaping } from '../notes/request-notes.js'
import type { NotedTrace } from '../notes/request-notes.js'
import type { MaybePromise } from '../async/maybe-promise.js'
import type { RefusalReason } from './refusal-reason.js'

/**
 * What made an answer what it is: the contract (the mock's own handler, latency or not), a fault
 * rule of the session, the request's own override (`Prefer: code=…`, `__code`, `__delay`), or the
 * deployment behind `--proxy`.
 */
export type AnswerSource = 'contract' | 'rule' | 'prefer' | 'proxy'

/** Every {@link AnswerSource}, in the order hosts may index them by. */
export const answerSources: readonly AnswerSource[] = ['contract', 'rule', 'prefer', 'proxy']

/**
 * Told of every answered `/v1` request, once, when its answer is complete (the Node host's
 * metrics). Called on the hot path: positional arguments, nothing allocated for it.
 */
export interface RequestObserver {
  /**
   * @param operation the contract's operation id; null for a path under the base path that no
   *   operation has (404, 405, OPTIONS)
   * @param status the answer's status; 0 when the connection was reset without one
   * @param source what shaped the answer
   * @param seconds from the request entering the chain to its answer (injected latency included)
   */
  answered(operation: string | null, status: number, source: AnswerSource, seconds: number): void
  /**
   * A `/v1` answer of a tenant's session, by status: told beside `answered` when a tenants
   * file is loaded (the tenant's name; `''` for a session of no tenant).
   */
  tenantAnswered?(tenant: string, status: number): void
  /**
   * A request the mock refused (`/v1` or `/__admin`), its reason read from the answer
   * (refusal-reason.ts); `tenant` is `''` for a session of no tenant or without a tenants file.
   */
  refused?(tenant: string, reason: RefusalReason): void
  /** A session dropped after its idle time (`--session-ttl`), by its tenant (`''`: none). */
  sessionDropped?(tenant: string): void
}

/** The pools a tenant's quota reserves (tenants/tenant.ts `quota`), as the metrics name them. */
export type TenantPool = 'sessions' | 'memory' | 'journal' | 'streams' | 'held'

/**
 * One tenant's use of one pool against its quota, as a scrape reads it: sessions, streams and
 * held requests in units, memory and journal in bytes. The share of no tenant (`tenant: ''`)
 * may come too, with what no tenant reserved as its limit.
 */
export interface TenantPoolUse {
  tenant: string
  pool: TenantPool
  used: number
  limit: number
}

/** A tenant's journal entries dropped so far (its own oldest, beyond `quota.journalMiB` or the journal's size). */
export interface TenantJournalDrops {
  tenant: string
  /** Monotonic: entries dropped since the start (on Redis: fleet-wide). */
  entries: number
}

/** A `/v1` request as a tracer sees it when it starts. */
export interface TracedRequest {
  method: string
  path: string
  /** The operation's id; null outside the contract's operations. */
  operation: string | null
  /** The route as the contract writes it, base path included (`/v1/pets/{petId}`); null outside one. */
  route: string | null
  /** A request header (`traceparent`, `tracestate`), undefined when absent. */
  header(name: string): string | undefined
}

/** How a traced request ended. */
export interface TracedAnswer {
  /** 0 when the connection was reset without an answer. */
  status: number
  source: AnswerSource
  /** The session it selected, if it got that far. */
  session: string | undefined
  /** What shaped the answer, as the journal records it. */
  shapedBy: readonly Shaping[] | undefined
  /** The request's `Prefer` header, when an override shaped the answer. */
  prefer: string | undefined
}

/** One request's trace (a server span), from the chain's start to the answer; the journal records its id. */
export interface RequestTrace extends NotedTrace {
  /** The answer is complete: the trace ends. */
  end(answer: TracedAnswer): void
}

/** Starts a trace for each `/v1` request (the Node host's OpenTelemetry), or none for this one. */
export interface RequestTracer {
  start(request: TracedRequest): RequestTrace | undefined
}

/** The sizes of the state, as a scrape reads them. */
export interface StateSizes {
  sessions: number
  /** Every session's pets together. */
  pets: number
  /** Every session's journal entries together. */
  journalEntries: number
  /** Every session's fault rules together. */
  faultRules: number
  /** Event streams open on this process (GET /__admin/requests/stream). */
  eventStreams: number
  /**
   * What the memory budget holds in bytes (on Redis: the shared state's share), and the budget; null
   * for none. `usedRatio`: the highest use of the shares that refuse writes (BudgetReport.usedRatio;
   * absent: usedBytes / budgetBytes);
   * `tenants`: each tenant's use against its quotas (sessions, memory, journal), with tenants only.
   */
  memory?: { usedBytes: number; budgetBytes: number | null; usedRatio?: number | null; tenants?: TenantUse[] }
  /** Whether the store takes writes now (absent: a store that never refuses them, the memory one). */
  storeWritable?: boolean
  /** Each tenant's use of each pool against its quota (absent: no tenants file, or the store does not tell). */
  tenantPools?: readonly TenantPoolUse[]
  /** Each tenant's journal entries dropped so far (absent: the store does not tell). */
  journalDrops?: readonly TenantJournalDrops[]
}

/** What the app hands a metrics source at each scrape. */
export interface MetricsScope {
  /** Read now, from the store (on Redis: one batch of reads; rejects while it cannot be reached). */
  sizes(): Promise<StateSizes>
}

/** The text of GET /__admin/metrics and its content type. */
export interface MetricsExposition {
  contentType: string
  body: string
}

/**
 * Why the mock cannot take writes now (a sentence), or undefined when it can; may throw an
 * ApiError to answer with (the store's 503).
 */
export type ReadinessCheck = () => MaybePromise<string | undefined>

/**
 * What a host watches the mock through (createApp's `observe`). Every part is optional and costs
 * nothing when absent: without `requests` and `tracer` the `/v1` chains have no stage for them.
 */
export interface ObserveOptions {
  /** Told of every answered `/v1` request. */
  requests?: RequestObserver
  /** Traces every `/v1` request. */
  tracer?: RequestTracer
  /** GET /__admin/metrics answers its text (behind the admin guard and token); none: no such route. */
  metrics?: (scope: MetricsScope) => Promise<MetricsExposition>
  /** GET /__admin/health/ready's check; default: the store answers a read. */
  ready?: ReadinessCheck
}
