import { keyFingerprint } from '../http/request/key-fingerprint.js'
import { globMatches } from '../tenants/session-glob.js'
import type { Tenant } from '../tenants/tenant.js'
import type { AdminToken } from './admin-scopes.js'

// What a token may reach, apart from reading tokens (admin-scopes.ts), which checking the options
// needs at start: the guard (admin-scope-guard.ts, loaded with the control plane) and an app with
// tenants (app.ts) use these.

/** The admin tokens of a tenant: its session globs, with each token's access. */
export const tenantTokens = (tenant: Tenant): AdminToken[] =>
  tenant.adminTokens.map(({ secret, access }) => ({
    secret,
    patterns: tenant.sessions,
    access,
    tenant: tenant.name,
    name: keyFingerprint(secret),
  }))

/** Whether the token's scope covers the session `name` (a metrics token covers none). */
export const tokenCovers = (token: AdminToken, name: string): boolean =>
  token.access !== 'metrics' && (token.patterns === undefined || token.patterns.some((glob) => globMatches(glob, name)))

/** How a token's scope reads in logs and messages. */
export const scopeOf = (token: AdminToken | undefined): string => {
  if (token === undefined) return 'open'
  if (token.access === 'metrics') return `${token.tenant === undefined ? '' : `tenant ${token.tenant}, `}metrics only`
  const sessions = token.patterns === undefined ? 'all' : `sessions ${token.patterns.join(' ')}`
  return `${token.tenant === undefined ? '' : `tenant ${token.tenant}, `}${sessions}${token.access === 'read' ? ', read-only' : ''}`
}
