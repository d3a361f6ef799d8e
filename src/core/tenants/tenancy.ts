import { globMatches } from './session-glob.js'
import type { QuotaPool, Tenant } from './tenant.js'

/**
 * Who owns what: the tenant of a session name and of a /v1 key. Built once
 * from the checked tenants (check-tenants.ts); with none, no session and no
 * key has a tenant, and every pool is whole for everyone.
 */
export class Tenancy {
  readonly tenants: readonly Tenant[]
  readonly #byKey = new Map<string, Tenant>()
  readonly #byName = new Map<string, Tenant>()
  // Session name → its tenant's index (-1: none); bounded, as any client may name any session.
  readonly #owners = new Map<string, number>()

  constructor(tenants: readonly Tenant[] = []) {
    this.tenants = tenants
    for (const tenant of tenants) {
      this.#byName.set(tenant.name, tenant)
      for (const key of tenant.apiKeys) this.#byKey.set(key, tenant)
    }
  }

  /** Whether any tenant is configured. */
  get active(): boolean {
    return this.tenants.length > 0
  }

  /** The tenant named `name`. */
  named(name: string): Tenant | undefined {
    return this.#byName.get(name)
  }

  /** The tenant owning the session `name` (undefined: the default session, or a name no tenant's glob matches). */
  ownerOf(name: string | undefined): Tenant | undefined {
    if (name === undefined || this.tenants.length === 0) return undefined
    let index = this.#owners.get(name)
    if (index === undefined) {
      index = this.tenants.findIndex((tenant) => tenant.sessions.some((glob) => globMatches(glob, name)))
      if (this.#owners.size >= 10_000) this.#owners.clear()
      this.#owners.set(name, index)
    }
    return index < 0 ? undefined : this.tenants[index]
  }

  /** The tenant whose /v1 key `key` is (undefined: a key of no tenant). */
  keyOwner(key: string): Tenant | undefined {
    return this.#byKey.get(key)
  }

  /** Every tenant's /v1 keys. */
  apiKeys(): string[] {
    return [...this.#byKey.keys()]
  }

  /** What of `total` no tenant has reserved: the share of the sessions of no tenant. */
  unreserved(pool: QuotaPool, total: number): number {
    return total - this.tenants.reduce((sum, tenant) => sum + tenant.quota[pool], 0)
  }
}
