import type { Spec, SpecOperation } from '../spec/spec.js'
import type { Next } from '../http/stage.js'
import type { Transport } from '../http/transport.js'
import { forwardTo } from './forward.js'
import { checkProxyOptions, type ProxyOptions } from './proxy-options.js'
import { ProxyStats } from './proxy-stats.js'
import { baseUrlOf } from './upstream-url.js'

/** What an app needs to stand in front of a deployment: the end of its chains, and their counts. */
export interface Proxy {
  stats: ProxyStats
  /** The stage that ends each API chain, for the app's contract, transport and body limit. */
  forward(deps: { spec: Spec; transport: Transport; bodyLimit: number }): (operation: SpecOperation | undefined) => Next
}

/**
 * A proxy for createApp's `proxy` option (`--proxy URL`): made apart from the
 * app, so that hosts that never proxy (msw in a browser) do not carry it.
 * Throws a TypeError naming a bad option.
 */
export const createProxy = (options: ProxyOptions): Proxy => {
  const checked = checkProxyOptions(options)
  if (typeof checked === 'string') throw new TypeError(checked)
  const stats = new ProxyStats(checked.url)
  return {
    stats,
    forward: ({ spec, transport, bodyLimit }) => {
      const upstream = baseUrlOf(checked.url, spec.basePath)
      stats.upstream = upstream
      return forwardTo({ spec, transport, bodyLimit, upstream, ...checked, stats })
    },
  }
}
