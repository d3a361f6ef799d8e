import type { ObserveOptions } from '../../core/observe/observer.js'
import type { ProxyStats } from '../../core/proxy/proxy-stats.js'
import type { StoreFactory } from '../store/open-store.js'
import { hostMetrics } from './host-metrics.js'
import { tracesEndpoint, tracesRequested } from './otel-env.js'

/** What the Node host watches the app through, and what it prints and stops. */
export interface HostObserve {
  /** createApp's `observe`. */
  options: ObserveOptions
  /** The store the app is built on, wrapped so that readiness asks it whether it takes writes. */
  store: StoreFactory | undefined
  /** Lines for the start banner (traces only: metrics are always there unless turned off). */
  banner: string[]
  /** Exports the traces still pending (the server stops). */
  shutdown(): Promise<void>
}

/** What {@link observeHost} needs to know. */
export interface ObserveHostInput {
  /** --metrics: GET /__admin/metrics and the per-request counts (default on). */
  metrics: boolean
  version: string
  /** The environment: OTEL_* variables turn traces on (otel-env.ts). */
  env: NodeJS.ProcessEnv
  /** The store --store opened (Redis); undefined for memory. */
  store: StoreFactory | undefined
  proxy: ProxyStats | undefined
  /**
   * The hook for a memory budget (another issue adds the budget): the share in use, 0 to 1, as
   * `petstore_mock_memory_budget_used_ratio`. No budget exists yet: nothing passes it.
   */
}

const missingPackage = (error: unknown): boolean =>
  (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' &&
  /@opentelemetry\//.test(String((error as Error).message))

// An endpoint's credentials (user:password@) stay out of the banner.
const redacted = (url: string): string => {
  try {
    const parsed = new URL(url)
    if (parsed.username === '' && parsed.password === '') return url
    parsed.username = '***'
    parsed.password = ''
    return parsed.href
  } catch {
    return url
  }
}

/** Longest wait for the last spans' export when the server stops (a collector that hangs must not hold it). */
const shutdownTimeoutMs = 2000

const withinShutdownTime = (done: Promise<void>): Promise<void> => {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, shutdownTimeoutMs)))
  return Promise.race([done.catch(() => undefined), late]).finally(() => clearTimeout(timer))
}

/**
 * The Node host's observability: metrics (on unless `--metrics off`; prom-client loads at the
 * first scrape), traces (when the OTEL_* variables ask; OpenTelemetry, an optional dependency,
 * loaded by a dynamic import only then), and readiness (on Redis: a write, see
 * RedisSessionStore.refusesWrites; in memory: the core's default).
 */
export const observeHost = async (input: ObserveHostInput): Promise<HostObserve> => {
  const options: ObserveOptions = {}
  const banner: string[] = []
  let shutdown = (): Promise<void> => Promise.resolve()

  if (input.metrics) {
    const metrics = hostMetrics({
      version: input.version,
      store: input.store === undefined ? 'memory' : 'redis',
      ...(input.proxy && { proxy: input.proxy }),
    })
    options.requests = metrics.requests
    options.metrics = metrics.metrics
  }

  if (tracesRequested(input.env)) {
    try {
      const { startTracing } = await import('./otel-tracer.js')
      const tracing = startTracing(input.version)
      options.tracer = tracing.tracer
      shutdown = () => withinShutdownTime(tracing.shutdown())
      banner.push(
        `  traces: OTLP/HTTP to ${redacted(tracesEndpoint(input.env))} (OpenTelemetry, from OTEL_* variables)`,
      )
    } catch (error) {
      if (!missingPackage(error)) throw error
      banner.push(
        '  traces: off: the OTEL_* variables ask for them, but the optional @opentelemetry packages are not installed',
      )
    }
  }

  let store = input.store
  if (store !== undefined) {
    let made: ReturnType<StoreFactory> | undefined
    const open = store
    store = (start, maxSessions) => (made = open(start, maxSessions))
    options.ready = () => made?.refusesWrites?.()
  }

  return { options, store, banner, shutdown: () => shutdown() }
}
