import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.js'

export type { LatencyRange } from '../world.js'

/**
 * Delays every answer by the session's latency (`--delay`, or a restored
 * snapshot's): a draw from the range by the session's seeded generator.
 */
export const latency = (): MiddlewareHandler<AppEnv> =>
  async function latency(c, next) {
    const session = c.get('session')
    const range = session.latency
    if (range === null) return next()
    const delayMs = range.min === range.max ? range.min : session.random.int(range.min, range.max)
    c.get('shaping')?.push({ by: 'latency', delayMs })
    await new Promise((resolve) => setTimeout(resolve, delayMs))
    await next()
  }
