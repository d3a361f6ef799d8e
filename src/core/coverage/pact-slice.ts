import type { MaybePromise } from '../async/maybe-promise.js'
import type { SessionName } from '../http/request/session-reader.js'
import type { KeptInteractions } from './pact-seed.js'

/**
 * A session's distinct interactions, as the state port holds them (see
 * sessions/port.ts for what every call may do): read here, kept by the
 * coverage stage's one call per request (coverage/coverage-slice.ts).
 */
export interface PactSlice extends SessionName {
  /** The distinct interactions since the session's start, its last reset or its last clearCoverage. */
  keptInteractions(): MaybePromise<KeptInteractions>
}
