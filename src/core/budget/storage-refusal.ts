/** What the memory budget holds apart: the state share's parts, and the journal's share. */
export type BudgetPart = 'pets' | 'rules' | 'sessions' | 'streams' | 'deprecations' | 'rateLimits'

/** Bytes by part, each zero: a ledger's start. */
export const noBytes = (): Record<BudgetPart, number> => ({
  pets: 0,
  rules: 0,
  sessions: 0,
  streams: 0,
  deprecations: 0,
  rateLimits: 0,
})

/**
 * A write the memory budget refused, as data: the store answers it instead of
 * changing anything, and the HTTP layer maps it to a 507 in one place
 * (insufficient-storage.ts). Knows nothing of HTTP.
 */
export interface StorageRefusal {
  refused: 'memory'
  /** What the write would have grown. */
  part: BudgetPart
  /** Bytes the write needed. */
  neededBytes: number
  /** Bytes left in the state share when it was refused. */
  freeBytes: number
  /** The whole budget, bytes. */
  budgetBytes: number
  /** The part holding the most of the state share, and its bytes: what to free first. */
  largest: { part: BudgetPart; bytes: number }
  /**
   * The tenant whose share refused it (tenants/: its `quota.memoryMiB`), and the bytes its state
   * share holds; absent: the server's budget, or with tenants the share of the sessions of no tenant.
   */
  tenant?: { name: string; quotaBytes: number; usedBytes: number }
  /** With tenants, a refusal of the share of the sessions of no tenant: what the tenants reserved of the budget, bytes. */
  reservedBytes?: number
}

/** Whether a store's answer is a refusal of the memory budget. */
export const isStorageRefusal = (value: unknown): value is StorageRefusal =>
  typeof value === 'object' && value !== null && (value as { refused?: unknown }).refused === 'memory'
