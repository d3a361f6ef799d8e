import { ApiError } from '../http/errors.js'
import type { Tenancy } from './tenancy.js'
import type { Tenant } from './tenant.js'

/**
 * The pools one process counts for itself: open event streams and held
 * requests are sockets and timers of this process, which no other replica
 * could free, so their quotas hold per replica (docs/reference/tenants.md).
 */
export type LocalPool = 'streams' | 'held'

/** Gives back what {@link LocalShares.take} took; calls after the first do nothing. */
export type Release = () => void

/**
 * One local pool shared out: each tenant may use up to its quota, and the
 * sessions of no tenant share what no tenant reserved. Without tenants, the
 * sessions of no tenant (all of them) share the whole pool, as before tenants.
 */
export class LocalShares {
  readonly pool: LocalPool
  readonly total: number
  readonly #tenancy: Tenancy
  // By tenant name; undefined: the sessions of no tenant. Entries at zero are deleted.
  readonly #used = new Map<string | undefined, number>()

  constructor(tenancy: Tenancy, pool: LocalPool, total: number) {
    this.#tenancy = tenancy
    this.pool = pool
    this.total = total
  }

  /** The tenant of the session `name` (undefined: the default session, or a name of no tenant). */
  ownerOf(name: string | undefined): Tenant | undefined {
    return this.#tenancy.ownerOf(name)
  }

  /** The most `tenant` may use at once: its quota, or what no tenant reserved. */
  limit(tenant: Tenant | undefined): number {
    return tenant ? tenant.quota[this.pool] : this.#tenancy.unreserved(this.pool, this.total)
  }

  /** What `tenant` uses now. */
  used(tenant: Tenant | undefined): number {
    return this.#used.get(tenant?.name) ?? 0
  }

  /** Each share's use against its limit: every tenant's, then that of no tenant (tenant ''). */
  uses(): { tenant: string; used: number; limit: number }[] {
    const shares = [...this.#tenancy.tenants, undefined]
    return shares.map((tenant) => ({ tenant: tenant?.name ?? '', used: this.used(tenant), limit: this.limit(tenant) }))
  }

  /** Every share's use, the tenants' and that of no tenant together. */
  get usedTotal(): number {
    let sum = 0
    for (const used of this.#used.values()) sum += used
    return sum
  }

  /** One more of the pool for `tenant`, and how to give it back; undefined at its limit (nothing taken). */
  take(tenant: Tenant | undefined): Release | undefined {
    const used = this.used(tenant)
    if (used >= this.limit(tenant)) return undefined
    const key = tenant?.name
    this.#used.set(key, used + 1)
    let given = false
    return () => {
      if (given) return
      given = true
      const left = this.used(tenant) - 1
      if (left > 0) this.#used.set(key, left)
      else this.#used.delete(key)
    }
  }
}

/** 429 `quota_exceeded`: a tenant at its quota of a pool; `message` names the quota, the use and how to free it. */
export const quotaExceeded = (message: string, headers?: Record<string, string>): ApiError =>
  new ApiError(429, message, { code: 'quota_exceeded', ...(headers && { headers }) })

/**
 * 429 `quota_exceeded` with `Retry-After: 1`: a request of `tenant` that would be held (hang,
 * drip, journal wait) while it holds its quota.held; it is not held, and nothing changes.
 */
export const heldRefusal = (tenant: Tenant, shares: LocalShares): ApiError =>
  quotaExceeded(
    `Tenant ${tenant.name} holds ${shares.used(tenant)} requests (hang, drip, journal waits), its quota (quota.held); this request was not held. Retry when one ends, or end one by closing its connection.`,
    { 'Retry-After': '1' },
  )
