import type { MaybePromise } from '../async/maybe-promise.js'
import type { SessionName } from '../http/request/session-reader.js'
import type { DeprecationClient, DeprecationReport, FirstCall } from './deprecation-log.js'

/** Told whether a deprecated call was its client's first (see noteDeprecatedCall). */
export type DeprecationHeard = (first: FirstCall, client: DeprecationClient, session: string) => void

/** A session's deprecation report, as the state port holds it (see sessions/port.ts for what every call may do). */
export interface DeprecationSlice extends SessionName {
  /**
   * Atomic per operation and client: counts a call of a deprecated operation.
   * Whether it was the client's first is answered now, or (a store that lives
   * elsewhere) told later to `heard`, with the client and the session's name;
   * nothing waits for it. A callback, not a promise: a promise per call cost
   * the hot path of a deprecated operation a sixth of its throughput on Redis.
   */
  noteDeprecatedCall(operation: string, client: DeprecationClient, now: number, heard: DeprecationHeard): FirstCall
  deprecationReport(): MaybePromise<DeprecationReport[]>
}
