import type { Answer, Next, RequestContext, Stage } from '../http/stage.js'
import { noteShaping } from '../notes/request-notes.js'
import { whenReady } from '../async/maybe-promise.js'
import type { SessionReader } from '../http/request/session-reader.js'
import type { FaultsSlice } from './faults-slice.js'

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
export const latency =
  (session: SessionReader<FaultsSlice>): Stage =>
  (c, next) =>
    whenReady(session(c).drawLatency(), delayed, c, next)
