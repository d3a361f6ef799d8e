import type { Tenant } from '../tenants/tenant.js'
import type { BudgetPort, JournalCharge, JournalOwner } from './budget-port.js'
import type { BudgetReport, TenantUse } from './budget-report.js'
import { defaultJournalShare, MemoryBudget } from './memory-budget.js'
import type { BudgetPart, StorageRefusal } from './storage-refusal.js'

const mibBytes = 2 ** 20

/**
 * The memory budget cut into guaranteed shares (issue 39): one {@link MemoryBudget} per tenant, of
 * its `quota.memoryMiB` (state) and `quota.journalMiB` (journal), and one for the sessions of no
 * tenant, of what the tenants did not reserve (split as the whole budget is without tenants). A
 * session charges the share of its owner ({@link shareOf}), so one tenant at its quota never
 * refuses another, nor the sessions of no tenant, and a journal makes room by dropping the oldest
 * entries of its own share only. As a {@link BudgetPort} it is the share of no tenant (what the
 * server itself charges: event-stream backlogs). Quotas never overcommit the budget
 * (tenants/check-tenants.ts), so the shares add up to at most the whole.
 */
export class TenantBudgets implements BudgetPort {
  readonly budgetBytes: number
  readonly #unreserved: MemoryBudget
  readonly #tenants = new Map<string, MemoryBudget>()
  readonly #sessionQuotas = new Map<string, number>()

  /** `budgetBytes`: the whole budget (`Infinity`: none; the tenants' shares are their quotas all the same). */
  constructor(budgetBytes: number, tenants: readonly Tenant[], journalShare: number = defaultJournalShare) {
    this.budgetBytes = budgetBytes
    let reservedBytes = 0
    for (const { name, quota } of tenants) {
      const sizes = { stateBytes: quota.memoryMiB * mibBytes, journalBytes: quota.journalMiB * mibBytes }
      this.#tenants.set(name, new MemoryBudget(sizes, journalShare, { tenant: name }))
      this.#sessionQuotas.set(name, quota.sessions)
      reservedBytes += sizes.stateBytes + sizes.journalBytes
    }
    this.#unreserved = new MemoryBudget(budgetBytes - reservedBytes, journalShare, { reservedBytes })
  }

  /** The share a session of `tenant` charges (undefined, or a name of no tenant: the share of no tenant). */
  shareOf(tenant: string | undefined): BudgetPort {
    return (tenant === undefined ? undefined : this.#tenants.get(tenant)) ?? this.#unreserved
  }

  get stateShareBytes(): number {
    return this.#unreserved.stateShareBytes
  }

  get journalShareBytes(): number {
    return this.#unreserved.journalShareBytes
  }

  charge(part: BudgetPart, bytes: number): StorageRefusal | undefined {
    return this.#unreserved.charge(part, bytes)
  }

  note(part: BudgetPart, bytes: number): void {
    this.#unreserved.note(part, bytes)
  }

  release(part: BudgetPart, bytes: number): void {
    this.#unreserved.release(part, bytes)
  }

  held(part: BudgetPart): number {
    return this.#unreserved.held(part)
  }

  chargeJournal(owner: JournalOwner, bytes: number): JournalCharge {
    return this.#unreserved.chargeJournal(owner, bytes)
  }

  releaseJournal(charge: JournalCharge): void {
    this.#unreserved.releaseJournal(charge)
  }

  /**
   * The share of no tenant as `state` and `journal`, each tenant's use in `tenants` (its sessions
   * counted by `sessionsOf`, the registry's count), everything held in `usedBytes`, and the highest
   * use of any share that refuses writes in `usedRatio`.
   */
  report(sessionsOf: (tenant: string) => number = () => 0): BudgetReport {
    const report = this.#unreserved.report()
    const tenants: TenantUse[] = []
    let ratio = report.usedRatio
    let usedBytes = report.usedBytes
    for (const [tenant, share] of this.#tenants) {
      const own = share.report()
      usedBytes += own.usedBytes
      if (own.usedRatio !== null) ratio = Math.max(ratio ?? 0, own.usedRatio)
      tenants.push({
        tenant,
        sessions: { used: sessionsOf(tenant), limit: this.#sessionQuotas.get(tenant)! },
        memory: { usedBytes: own.state.usedBytes, limitBytes: share.stateShareBytes },
        journal: {
          usedBytes: own.journal.usedBytes,
          limitBytes: share.journalShareBytes,
          entries: own.journal.entries,
        },
      })
    }
    return {
      ...report,
      budgetBytes: Number.isFinite(this.budgetBytes) ? this.budgetBytes : null,
      usedBytes,
      usedRatio: ratio,
      tenants,
    }
  }
}
