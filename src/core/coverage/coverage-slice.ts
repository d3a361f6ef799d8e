import type { InteractionNote, maxInteractions } from './pact-seed.js'
import type { MaybePromise } from '../async/maybe-promise.js'
import type { SessionName } from '../http/request/session-reader.js'

/** Counters as a store keeps them: counter name → count. Names: see coverage-model.ts. */
export type CoverageCounts = Readonly<Record<string, number>>

/**
 * A session's contract coverage, as the state port holds it (see
 * sessions/port.ts for what every call may do): counts kept from its start
 * or last reset, apart from the bounded journal (a suite of 50,000 requests
 * is counted in full), and the distinct interactions the pact is made of
 * (read through pact/pact-slice.ts).
 */
export interface CoverageSlice extends SessionName {
  /**
   * Atomic: adds one to each of `counters`; with `interaction`, keeps its
   * seed under its key unless that key is kept already, or counts it as left
   * out when the session keeps {@link maxInteractions} already. Nothing waits
   * for it: a store that lives elsewhere sends it in the same round trip as
   * the request's journal entry, which the answer waits for.
   */
  countCoverage(counters: readonly string[], interaction?: InteractionNote): void
  /** Every counter counted since the session's start, its last reset or its last clearCoverage. */
  coverageCounts(): MaybePromise<CoverageCounts>
  /** Atomic: forgets the counts and the kept interactions (a reset does too). */
  clearCoverage(): MaybePromise<void>
}
