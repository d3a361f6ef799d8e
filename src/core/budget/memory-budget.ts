import type { BudgetPort, JournalCharge, JournalOwner } from './budget-port.js'
import { JournalShare } from './journal-share.js'
import { type BudgetPart, noBytes, type StorageRefusal } from './storage-refusal.js'

/** The journal's share of the budget by default: entries beyond it make room by dropping the oldest. */
export const defaultJournalShare = 0.25

const parts: readonly BudgetPart[] = ['pets', 'rules', 'sessions', 'streams', 'deprecations', 'rateLimits']

/** What the budget holds, for health and the banner; null bytes: no budget (unlimited). */
export interface BudgetReport {
  budgetBytes: number | null
  usedBytes: number
  /** Pets, rules, sessions, stream backlogs, deprecation and rate-limit records: writes beyond it are refused. */
  state: { shareBytes: number | null; usedBytes: number; parts: Record<BudgetPart, number> }
  /** Journal entries of every session: the oldest go to make room. */
  journal: { shareBytes: number | null; usedBytes: number; entries: number }
}

const finite = (bytes: number): number | null => (Number.isFinite(bytes) ? bytes : null)

/**
 * One memory budget for everything clients can make the server hold, across
 * every session: a journal share (entries beyond it drop the oldest, never
 * refused) and a state share (pets, rules, sessions, stream backlogs,
 * deprecation and rate-limit records; a write beyond it is refused). The
 * in-process implementation of {@link BudgetPort}; `Infinity`: no budget.
 */
export class MemoryBudget implements BudgetPort {
  readonly budgetBytes: number
  readonly stateShareBytes: number
  readonly #journal: JournalShare
  readonly #parts: Record<BudgetPart, number> = noBytes()
  #stateUsed = 0

  constructor(budgetBytes: number = Infinity, journalShare: number = defaultJournalShare) {
    this.budgetBytes = budgetBytes
    const journalBytes = Number.isFinite(budgetBytes) ? Math.floor(budgetBytes * journalShare) : Infinity
    this.#journal = new JournalShare(journalBytes)
    this.stateShareBytes = Number.isFinite(budgetBytes) ? budgetBytes - journalBytes : Infinity
  }

  get journalShareBytes(): number {
    return this.#journal.shareBytes
  }

  held(part: BudgetPart): number {
    return this.#parts[part]
  }

  charge(part: BudgetPart, bytes: number): StorageRefusal | undefined {
    if (bytes <= 0) return undefined
    const free = this.stateShareBytes - this.#stateUsed
    if (bytes > free) return this.#refusal(part, bytes, free)
    this.note(part, bytes)
    return undefined
  }

  note(part: BudgetPart, bytes: number): void {
    this.#parts[part] += bytes
    this.#stateUsed += bytes
  }

  release(part: BudgetPart, bytes: number): void {
    if (bytes <= 0) return
    this.#parts[part] -= bytes
    this.#stateUsed -= bytes
  }

  chargeJournal(owner: JournalOwner, bytes: number): JournalCharge {
    return this.#journal.charge(owner, bytes)
  }

  releaseJournal(charge: JournalCharge): void {
    this.#journal.release(charge)
  }

  report(): BudgetReport {
    return {
      budgetBytes: finite(this.budgetBytes),
      usedBytes: this.#stateUsed + this.#journal.usedBytes,
      state: { shareBytes: finite(this.stateShareBytes), usedBytes: this.#stateUsed, parts: { ...this.#parts } },
      journal: {
        shareBytes: finite(this.#journal.shareBytes),
        usedBytes: this.#journal.usedBytes,
        entries: this.#journal.entries,
      },
    }
  }

  #refusal(part: BudgetPart, neededBytes: number, freeBytes: number): StorageRefusal {
    const largest = parts.reduce((a, b) => (this.#parts[b] > this.#parts[a] ? b : a))
    return {
      refused: 'memory',
      part,
      neededBytes,
      freeBytes: Math.max(0, freeBytes),
      budgetBytes: this.budgetBytes,
      largest: { part: largest, bytes: this.#parts[largest] },
    }
  }
}
