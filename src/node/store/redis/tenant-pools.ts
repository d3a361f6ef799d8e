import type { BudgetPort } from '../../../core/budget/budget-port.js'
import { defaultJournalShare } from '../../../core/budget/memory-budget.js'
import { defaultSessionName } from '../../../core/sessions/memory-store.js'
import type { Tenancy } from '../../../core/tenants/tenancy.js'
import type { Tenant } from '../../../core/tenants/tenant.js'

const MiB = 2 ** 20

/**
 * One pool of the shared state (issue 39): the sessions of one tenant, or those of no tenant.
 * `prefix` is what the scripts take as the pool (scripts/budget.lua): the store's prefix for the
 * sessions of no tenant (the keys as before tenants), `<prefix>:q:<tenant>` for a tenant's.
 */
export interface RedisPool {
  /** The tenant whose pool it is; undefined: the sessions of no tenant. */
  tenant: Tenant | undefined
  prefix: string
  /** Most named sessions of the pool. */
  maxSessions: number
  /** The pool's state share, bytes, as the scripts take it: -1 for none. */
  stateLimit: number
  /** The pool's journal share, bytes, as the scripts take it: -1 for none. */
  journalLimit: number
}

const scriptLimit = (bytes: number): number => (Number.isFinite(bytes) ? Math.max(0, bytes) : -1)

/**
 * The pools of a store's prefix, made once: each tenant's (its quota) and that of the sessions
 * of no tenant (what the tenants did not reserve of --max-sessions and of the budget's shares).
 * Without tenants there is one pool, the whole server's, with the keys and limits of before.
 */
export class RedisPools {
  readonly #tenancy: Tenancy | undefined
  readonly #byTenant = new Map<string, RedisPool>()
  /** The pool of the sessions of no tenant. */
  readonly unowned: RedisPool
  /** What the tenants reserved of the budget (state and journal), bytes; 0 without tenants. */
  readonly reservedBytes: number
  /** The budget of the sessions of no tenant (with tenants: what the tenants did not reserve), bytes. */
  readonly unownedBudgetBytes: number

  constructor(prefix: string, maxSessions: number, budget: BudgetPort | undefined, tenancy: Tenancy | undefined) {
    this.#tenancy = tenancy?.active ? tenancy : undefined
    const tenants = this.#tenancy?.tenants ?? []
    this.reservedBytes = tenants.reduce((sum, { quota }) => sum + (quota.memoryMiB + quota.journalMiB) * MiB, 0)
    let state = budget?.stateShareBytes ?? Infinity
    let journal = budget?.journalShareBytes ?? Infinity
    this.unownedBudgetBytes = (budget?.budgetBytes ?? Infinity) - this.reservedBytes
    // A budget cut into the tenants' shares (budget/tenant-budgets.ts) tells the share of no tenant
    // already; a whole one is cut here the same way: what the tenants did not reserve, split as the
    // whole budget is.
    if (this.#tenancy && budget?.shareOf === undefined && Number.isFinite(this.unownedBudgetBytes)) {
      journal = Math.floor(this.unownedBudgetBytes * defaultJournalShare)
      state = this.unownedBudgetBytes - journal
    }
    this.unowned = {
      tenant: undefined,
      prefix,
      maxSessions: this.#tenancy ? Math.max(0, this.#tenancy.unreserved('sessions', maxSessions)) : maxSessions,
      stateLimit: scriptLimit(state),
      journalLimit: scriptLimit(journal),
    }
    for (const tenant of tenants) {
      this.#byTenant.set(tenant.name, {
        tenant,
        prefix: `${prefix}:q:${tenant.name}`,
        maxSessions: tenant.quota.sessions,
        stateLimit: tenant.quota.memoryMiB * MiB,
        journalLimit: tenant.quota.journalMiB * MiB,
      })
    }
  }

  /** The tenants, in the file's order. */
  get tenants(): readonly Tenant[] {
    return this.#tenancy?.tenants ?? []
  }

  /** The pool of the session `name`, as the tenants file places it (the default session: of no tenant, whatever the globs). */
  ofSession(name: string): RedisPool {
    if (name === defaultSessionName) return this.unowned
    return this.named(this.#tenancy?.ownerOf(name)?.name ?? '')
  }

  /**
   * The pool of a tenant by name ('': none), as a session records it: a name no longer in the
   * tenants file (changed across a restart) is counted with the sessions of no tenant's limits,
   * in its own keys, so that what it holds still goes back where it was charged.
   */
  named(tenant: string): RedisPool {
    if (tenant === '') return this.unowned
    return this.#byTenant.get(tenant) ?? { ...this.unowned, prefix: `${this.unowned.prefix}:q:${tenant}` }
  }
}
