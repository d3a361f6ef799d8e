/**
 * Tenants (issue 39): a tenant is a team. It owns the sessions whose names
 * match its globs, the /v1 keys and admin tokens that reach them, and a
 * guaranteed share of every pool one client can fill. With no tenants the
 * mock behaves as it always did.
 */

/** What a tenant's admin token may do: its sessions read and written, read only, or the metrics only. */
export type TenantAccess = 'write' | 'read' | 'metrics'

/** One admin token of a tenant. */
export interface TenantToken {
  secret: string
  access: TenantAccess
}

/**
 * A tenant's guaranteed share of each pool: sessions, state memory (pets,
 * rules, stream backlogs…) and journal bytes in MiB, open event streams, and
 * held requests (hang, drip, journal waits). Shares are guaranteed, so their
 * sums never exceed the server's pools.
 */
export interface TenantQuota {
  sessions: number
  memoryMiB: number
  journalMiB: number
  streams: number
  held: number
}

/** The pools a quota shares out. */
export type QuotaPool = keyof TenantQuota

/** One tenant, as the tenants file declares it (checked: see check-tenants.ts). */
export interface Tenant {
  name: string
  /** Globs of the session names it owns; no two tenants' globs overlap. */
  sessions: readonly string[]
  /** Its /v1 keys. */
  apiKeys: readonly string[]
  adminTokens: readonly TenantToken[]
  quota: TenantQuota
}
