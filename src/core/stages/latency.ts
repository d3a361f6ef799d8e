import type { Context } from 'hono'
import type { AppEnv } from '../app-env.js'
import { noteShaping } from './journal.js'

/** Resolves after `ms` milliseconds. */
export const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

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
  noteShaping(c, { by: 'latency', delayMs })
  return wait(delayMs)
}
