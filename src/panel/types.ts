import type { JournalEntry } from '../core/journal/journal-entry.js'
import type { Session } from '../core/sessions/memory-store.js'

export type { JournalEntry } from '../core/journal/journal-entry.js'
export type { Shaping } from '../core/notes/request-notes.js'
export type { FaultRule, FaultRuleInput } from '../core/faults/rule-check.js'
export type { Pet, PetStatus } from '../core/spec/pet.js'
export type { ClockView } from '../core/time/clock.js'
export type { RateLimitView } from '../core/rate-limit/rate-limit-routes.js'

/** The answer a journal entry records (absent for a reset connection). */
export type JournalResponse = NonNullable<JournalEntry['response']>

/** A row of GET /__admin/sessions. */
export type SessionSummary = ReturnType<Session['summary']>
export type { CoverageReport } from '../core/coverage/coverage-report.js'
