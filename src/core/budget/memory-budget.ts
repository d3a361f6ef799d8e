import type { BudgetPort, JournalCharge, JournalOwner } from './budget-port.js'
import { JournalShare } from './journal-share.js'
import { type BudgetPart, noBytes, type StorageRefusal } from './storage-refusal.js'
import type { BudgetReport } from './budget-report.js'

export type { BudgetReport, TenantUse } from './budget-report.js'

/** The journal's share of the budget by default: entries beyond it make room by dropping the oldest. */
export const defaultJournalShare = 0.25

const parts: readonly BudgetPart[] = ['pets', 'rules', 'sessions', 'streams', 'deprecations', 'rateLimits']

/** A budget's two shares, bytes, given outright (a tenant's: `quota.memoryMiB` and `quota.journalMiB`). */
export interface ShareSizes {
  stateBytes: number
  journalBytes: number
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

  /** The tenant whose share this is (its refusals name it); undefined: the server's, or the share of no tenant. */
  readonly tenant: string | undefined
  /** What the tenants reserved of the server's budget, when this is the share of the sessions of no tenant. */
  readonly #reservedBytes: number | undefined

  /**
   * `budgetBytes`: the whole, of which `journalShare` goes to the journal; or the two shares given
   * outright ({@link ShareSizes}). `tenant`: whose share it is; `reservedBytes`: see {@link StorageRefusal}.
   */
  constructor(
    budgetBytes: number | ShareSizes = Infinity,
    journalShare: number = defaultJournalShare,
    owner: { tenant?: string; reservedBytes?: number } = {},
  ) {
    if (typeof budgetBytes === 'number') {
      this.budgetBytes = budgetBytes
      const journalBytes = Number.isFinite(budgetBytes) ? Math.floor(budgetBytes * journalShare) : Infinity
      this.#journal = new JournalShare(journalBytes)
      this.stateShareBytes = Number.isFinite(budgetBytes) ? budgetBytes - journalBytes : Infinity
    } else {
      this.budgetBytes = budgetBytes.stateBytes + budgetBytes.journalBytes
      this.#journal = new JournalShare(budgetBytes.journalBytes)
      this.stateShareBytes = budgetBytes.stateBytes
    }
    this.tenant = owner.tenant
    this.#reservedBytes = owner.reservedBytes
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

  /** The state share's use, 0 to 1 (null: no limit): writes are refused as it reaches 1. */
  get usedRatio(): number | null {
    if (!Number.isFinite(this.stateShareBytes)) return null
    return this.stateShareBytes > 0 ? this.#stateUsed / this.stateShareBytes : this.#stateUsed > 0 ? 1 : 0
  }

  report(): BudgetReport {
    return {
      budgetBytes: finite(this.budgetBytes),
      usedBytes: this.#stateUsed + this.#journal.usedBytes,
      usedRatio: this.usedRatio,
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
      ...(this.tenant !== undefined && {
        tenant: { name: this.tenant, quotaBytes: this.stateShareBytes, usedBytes: this.#stateUsed },
      }),
      ...(this.#reservedBytes !== undefined && { reservedBytes: this.#reservedBytes }),
    }
  }
}
