import type { BudgetReport } from '../budget/memory-budget.js'
import type { MaybePromise } from '../async/maybe-promise.js'
import type { SessionStore } from '../sessions/port.js'
import type { StateSizes, TenantPoolUse } from '../observe/observer.js'

/** What reports each share of a pool's use against its limit (tenants/local-shares.ts). */
interface PoolUses {
  uses(): { tenant: string; used: number; limit: number }[]
}

/**
 * The state's sizes now: every session's summary (without touching recency), added up, and the
 * event streams open on this process. On a store that lives elsewhere the summaries are one batch
 * of reads (the store batches the calls of one turn); bounded by --max-sessions.
 */
export const stateSizes = async (
  sessions: SessionStore,
  streams: { readonly open: number } & PoolUses,
  memory?: () => MaybePromise<BudgetReport>,
  held?: PoolUses,
): Promise<StateSizes> => {
  const all = await sessions.sessions()
  const summaries = await Promise.all(all.map((session) => session.summary()))
  const sizes: StateSizes = { sessions: summaries.length, pets: 0, journalEntries: 0, faultRules: 0, eventStreams: 0 }
  for (const summary of summaries) {
    sizes.pets += summary.pets
    sizes.journalEntries += summary.requests
    sizes.faultRules += summary.faults
  }
  sizes.eventStreams = streams.open
  if (sessions.writes) sizes.storeWritable = (await sessions.writes()).writable
  if (memory) {
    const report = await memory()
    sizes.memory = { usedBytes: report.usedBytes, budgetBytes: report.budgetBytes, usedRatio: report.usedRatio }
    if (report.tenants) {
      sizes.memory.tenants = report.tenants
      sizes.tenantPools = [
        ...report.tenants.flatMap((use): TenantPoolUse[] => [
          { tenant: use.tenant, pool: 'sessions', used: use.sessions.used, limit: use.sessions.limit },
          { tenant: use.tenant, pool: 'memory', used: use.memory.usedBytes, limit: use.memory.limitBytes },
          { tenant: use.tenant, pool: 'journal', used: use.journal.usedBytes, limit: use.journal.limitBytes },
        ]),
        ...streams.uses().map((use) => ({ ...use, pool: 'streams' as const })),
        ...(held?.uses() ?? []).map((use) => ({ ...use, pool: 'held' as const })),
      ]
    }
  }
  return sizes
}
