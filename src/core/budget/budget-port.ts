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
}
