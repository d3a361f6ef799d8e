import type { BudgetPart } from './storage-refusal.js'

/**
 * One tenant's use against its quotas (tenants/), plain data keyed by the tenant's name: what
 * health and the metrics read. `sessions` counts its named sessions; `memory` is its state share
 * (`quota.memoryMiB`: writes beyond it are refused), `journal` its journal share (`quota.journalMiB`:
 * its own oldest entries go to make room). A shared store (Redis) reports the same shape.
 */
export interface TenantUse {
  tenant: string
  sessions: { used: number; limit: number }
  memory: { usedBytes: number; limitBytes: number }
  journal: { usedBytes: number; limitBytes: number; entries: number }
}

/** What the budget holds, for health and the banner; null bytes: no budget (unlimited). */
export interface BudgetReport {
  budgetBytes: number | null
  /** Everything held, every share's (the tenants' too). */
  usedBytes: number
  /**
   * The highest use, 0 to 1, of the shares that refuse writes (the state share; with tenants, each
   * tenant's and the share of the sessions of no tenant): the first to reach 1 refuses writes, so an
   * alert on it fires before they are. Journal shares never refuse (they drop their oldest entries)
   * and are not counted. null: no share has a limit.
   */
  usedRatio: number | null
  /**
   * Pets, rules, sessions, stream backlogs, deprecation and rate-limit records: writes beyond it are
   * refused. With tenants: the share of the sessions of no tenant (what the tenants did not reserve).
   */
  state: { shareBytes: number | null; usedBytes: number; parts: Record<BudgetPart, number> }
  /** Journal entries of every session (with tenants: of the sessions of no tenant): the oldest go to make room. */
  journal: { shareBytes: number | null; usedBytes: number; entries: number }
  /** Each tenant's use against its quotas, in the tenants file's order; absent without tenants. */
  tenants?: TenantUse[]
}
