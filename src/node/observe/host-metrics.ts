import type { MetricsExposition, MetricsScope, StateSizes } from '../../core/observe/observer.js'
import type { MetricsRegistry, RegistrySources } from './prometheus.js'
import { RequestCounts } from './request-counts.js'

/** The Node host's metrics: the observer the app calls per request, and GET /__admin/metrics's text. */
export interface HostMetrics {
  requests: RequestCounts
  metrics(scope: MetricsScope): Promise<MetricsExposition>
}

/** Longest wait for the state's sizes at a scrape (the store's own timeout is 2 s). */
const sizesTimeoutMs = 2500

const withinTime = <T>(promise: Promise<T>, ms: number): Promise<T | undefined> => {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    promise.catch(() => undefined),
    new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms))),
  ]).finally(() => clearTimeout(timer))
}

/**
 * Metrics for the Node host: requests are counted from the first one (request-counts.ts); the
 * Prometheus registry, prom-client with the process's defaults, is loaded by the first scrape, so
 * that a start loads none of it. A scrape reads the state's sizes first (NaN gauges when the store
 * cannot be read: the traffic and the store's errors are still answered).
 */
export const hostMetrics = (sources: Omit<RegistrySources, 'requests'>): HostMetrics => {
  const requests = new RequestCounts()
  let registry: Promise<MetricsRegistry> | undefined
  return {
    requests,
    metrics: async (scope) => {
      registry ??= import('./prometheus.js').then(({ createRegistry }) => createRegistry({ ...sources, requests }))
      const [made, sizes] = await Promise.all([registry, withinTime<StateSizes>(scope.sizes(), sizesTimeoutMs)])
      return { contentType: made.contentType, body: await made.scrape(sizes) }
    },
  }
}
