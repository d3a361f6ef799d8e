import type { JournalEntry as CoreJournalEntry } from '../core/journal.js'
import type { Session } from '../core/sessions.js'

export type { Shaping } from '../core/journal.js'
export type { FaultRule, FaultRuleInput } from '../core/faults.js'
export type { Pet, PetStatus } from '../core/pet.js'

/** The answer a journal entry records (absent for a reset connection). */
export interface JournalResponse {
  status: number
  headers: Record<string, string>
  body?: unknown
  bodyTruncated?: true
}

/** A journal entry as GET /__admin/requests and its event stream give it. */
export type JournalEntry = CoreJournalEntry & {
  headers?: Record<string, string>
  response?: JournalResponse
}

/** A row of GET /__admin/sessions. */
export type SessionSummary = ReturnType<Session['summary']>
