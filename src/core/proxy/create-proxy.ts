import type { Spec, SpecOperation } from '../spec/spec.js'
import type { Next } from '../http/stage.js'
import type { Transport } from '../http/transport.js'
import { type ForwardOptions, forwardTo } from './forward.js'
import { checkProxyOptions, type ProxyOptions } from './proxy-options.js'
import { ProxyStats } from './proxy-stats.js'
import { baseUrlOf } from './upstream-url.js'

/** What the app gives the proxy when it builds its chains. */
export type ForwardDeps = Pick<ForwardOptions, 'spec' | 'transport' | 'bodyLimit' | 'keepPets'>

/** What an app needs to stand in front of a deployment: the end of its chains, and their counts. */
export interface Proxy {
  stats: ProxyStats
  /**
   * The stage that ends each API chain, for the app's contract, transport and
   * body limit; `keepPets` keeps the pets the deployment answers in the
   * request's session.
   */
  forward(deps: ForwardDeps): (operation: SpecOperation | undefined) => Next
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
    forward: ({ spec, transport, bodyLimit, keepPets }) => {
      const upstream = baseUrlOf(checked.url, spec.basePath)
      stats.upstream = upstream
      return forwardTo({ spec, transport, bodyLimit, keepPets, upstream, ...checked, stats })
    },
  }
}
