import type { Context } from 'hono'
import type { AppEnv } from '../app-env.js'

export type { LatencyRange } from '../world.js'

/**
 * The session's latency (`--delay`, or a restored snapshot's) for this
 * answer, noted for the journal, as a wait; undefined when the session has
 * none. A draw from the range by the session's seeded generator.
 */
export const latencyWait = (c: Context<AppEnv>): Promise<void> | undefined => {
  const session = c.get('session')
  const range = session.latency
  if (range === null) return undefined
  const delayMs = range.min === range.max ? range.min : session.random.int(range.min, range.max)
  c.get('shaping')?.push({ by: 'latency', delayMs })
  return new Promise((resolve) => setTimeout(resolve, delayMs))
}
