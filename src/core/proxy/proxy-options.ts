import { isHttpUrl } from './upstream-url.js'

/** The `proxy` option of createApp (`--proxy URL`, `--proxy-timeout`, `--proxy-flag-violations`). */
export interface ProxyOptions {
  /** The deployment: its base URL (the contract's base path, /v1, is added when missing). */
  url: string
  /** How long the deployment has to answer, ms (default 10000); 504 beyond. */
  timeoutMs?: number
  /** Add `X-Contract-Violations: n` to every proxied answer (default false). */
  flagViolations?: boolean
}

/** The defaults of {@link ProxyOptions}. */
export const proxyDefaults = { timeoutMs: 10_000, maxTimeoutMs: 600_000 } as const

/** Checked options, every one filled in; or a sentence naming the bad one. */
export const checkProxyOptions = (
  options: ProxyOptions,
): { url: string; timeoutMs: number; flagViolations: boolean } | string => {
  if (!options || typeof options !== 'object') return 'proxy must be { url, timeoutMs?, flagViolations? }'
  if (typeof options.url !== 'string' || !isHttpUrl(options.url)) {
    return `proxy.url must be an absolute http(s) URL (got ${JSON.stringify(options.url)})`
  }
  const timeoutMs = options.timeoutMs ?? proxyDefaults.timeoutMs
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > proxyDefaults.maxTimeoutMs) {
    return `proxy.timeoutMs must be an integer between 1 and ${proxyDefaults.maxTimeoutMs} (got ${JSON.stringify(options.timeoutMs)})`
  }
  if (options.flagViolations !== undefined && typeof options.flagViolations !== 'boolean') {
    return `proxy.flagViolations must be true or false (got ${JSON.stringify(options.flagViolations)})`
  }
  return { url: options.url, timeoutMs, flagViolations: options.flagViolations === true }
}
