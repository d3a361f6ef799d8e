import type { Context } from 'hono'
import type { AppEnv } from '../app-env.js'
import { noteShaping } from '../journal/journal-stage.js'

/** Resolves after `ms` milliseconds. */
export const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The session's latency (`--delay`, or a restored snapshot's) for this
 * answer, noted for the journal, as a wait; undefined when the session has
 * none. A draw from the range by the session's seeded generator.
 */
export const latencyWait = (c: Context<AppEnv>): Promise<void> | undefined => {
  const delayMs = c.get('session').drawLatency()
  if (delayMs instanceof Promise) return delayMs.then((ms) => (ms === undefined ? undefined : waitNoted(c, ms)))
  return delayMs === undefined ? undefined : waitNoted(c, delayMs)
}

const waitNoted = (c: Context<AppEnv>, delayMs: number): Promise<void> => {
  noteShaping(c, { by: 'latency', delayMs })
  return wait(delayMs)
}
