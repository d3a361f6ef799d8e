import type { BudgetReport } from './budget-report.js'
import type { BudgetPart, StorageRefusal } from './storage-refusal.js'

/** One kept journal entry as the journal's share counts it. */
export interface JournalCharge {
  readonly bytes: number
}

/** What owns journal entries: the share asks it to drop its oldest one to make room. */
export interface JournalOwner {
  /** Drops the oldest entry it keeps (the one charged first); its charge is released by the owner. */
  dropOldest(): void
}

/**
 * The memory budget as a store sees it: it charges what it keeps and
 * releases what it lets go. The store knows nothing of HTTP: a refused
 * charge is data ({@link StorageRefusal}) that it answers instead of
 * changing anything.
 *
 * With tenants (issue 39) the budget is cut into guaranteed shares
 * (tenant-budgets.ts): {@link shareOf} gives the share a session charges,
 * chosen by the session's owner (`StartState.tenancy.ownerOf(name)`): the
 * tenant's own (`quota.memoryMiB` of state, `quota.journalMiB` of journal),
 * or for a session of no tenant the share of what no tenant reserved, which
 * is also what this port itself charges. A tenant's share refuses with the
 * tenant in its {@link StorageRefusal} (`tenant`), and its journal share
 * drops the oldest entries of that tenant's sessions only. A shared store
 * (Redis) enforces the same shares in its scripts, one key set per share.
 */
export interface BudgetPort {
  /** The whole budget, bytes (`Infinity`: none). */
  readonly budgetBytes: number
  /** The state share, bytes (`Infinity`: none): what a shared store (Redis) enforces itself, in its scripts. */
  readonly stateShareBytes: number
  /** The journal's share, bytes (`Infinity`: none): a shared store (Redis) keeps its entries within it itself. */
  readonly journalShareBytes: number
  /** Atomic: takes `bytes` of the state share for `part`; or refuses, taking nothing. */
  charge(part: BudgetPart, bytes: number): StorageRefusal | undefined
  /**
   * Takes `bytes` that cannot be refused (what answering a read keeps: a
   * session, a rate-limit window, a deprecation record; each bounded by its
   * own cap). It counts against later writes.
   */
  note(part: BudgetPart, bytes: number): void
  /** Gives back what {@link charge} or {@link note} took. */
  release(part: BudgetPart, bytes: number): void
  /** What `part` holds here, bytes (on a shared store: what this process holds of it, its event-stream backlogs). */
  held(part: BudgetPart): number
  /**
   * Takes `bytes` of the journal's share for an entry of `owner`'s, first
   * making room by dropping the oldest entries of any session. Never refuses.
   */
  chargeJournal(owner: JournalOwner, bytes: number): JournalCharge
  /** Gives back a journal entry's charge (it was dropped, cleared or its session closed). */
  releaseJournal(charge: JournalCharge): void
  /**
   * With tenants: the share a session of `tenant` charges (its owner; undefined: a session of no
   * tenant, the share of what no tenant reserved). Absent: one budget for every session.
   */
  shareOf?(tenant: string | undefined): BudgetPort
  /**
   * What it holds, for health and the metrics; `sessionsOf` counts a tenant's named sessions (the
   * registry's count) for {@link BudgetReport.tenants}.
   */
  report?(sessionsOf?: (tenant: string) => number): BudgetReport
}
