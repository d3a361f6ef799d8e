import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.js'
import type { Random } from '../random.js'

/** A latency range in ms. */
export interface LatencyRange {
  min: number
  max: number
}

/** Delays every answer by a seeded draw from the range (`--delay`). */
export const latency = (range: LatencyRange, random: Random): MiddlewareHandler<AppEnv> =>
  async function latency(c, next) {
    const delayMs = range.min === range.max ? range.min : random.int(range.min, range.max)
    c.get('shaping')?.push({ by: 'latency', delayMs })
    await new Promise((resolve) => setTimeout(resolve, delayMs))
    await next()
  }
