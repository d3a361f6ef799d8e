import type { Answer, Next, RequestContext, Stage } from '../http/stage.js'
import { noteShaping } from '../journal/journal-notes.js'
import { whenReady } from '../state/maybe-promise.js'

/** Resolves after `ms` milliseconds. */
export const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

const delayed = (delayMs: number | undefined, c: RequestContext, next: Next): Answer => {
  if (delayMs === undefined) return next(c)
  noteShaping(c, { by: 'latency', delayMs })
  return wait(delayMs).then(() => next(c))
}

/**
 * Waits the session's latency (`--delay`, or a restored snapshot's) before
 * the rest runs, noted for the journal; nothing when the session has none.
 * A draw from the range by the session's seeded generator.
 */
export const latency = (): Stage => (c, next) => whenReady(c.get('session').drawLatency(), delayed, c, next)
