import type { MaybePromise } from '../async/maybe-promise.js'
import type { SessionName } from '../http/request/session-reader.js'
import type { JournalListener, JournalQuery, JournalRecord } from './journal.js'

/** A session's journal, as the state port holds it (see sessions/port.ts for what every call may do). */
export interface JournalSlice extends SessionName {
  /**
   * Atomic: the entry under the next entry id, the oldest dropped beyond the
   * journal's size; subscribers (on every replica) hear of it.
   */
  record(entry: Omit<JournalRecord, 'id'>): MaybePromise<JournalRecord>
  /** Recorded requests, oldest first, filtered by `query`. */
  requests(query?: JournalQuery): MaybePromise<JournalRecord[]>
  /** How many entries the journal dropped to make room (beyond its size) since the session began. */
  requestsDropped(): MaybePromise<number>
  clearRequests(): MaybePromise<void>
  /** Hears of each entry recorded from now on; returns the unsubscribe. */
  subscribe(listener: JournalListener): () => void
}
