import { checkTenantPools, checkTenants } from '../../core/tenants/check-tenants.js'
import type { Tenant } from '../../core/tenants/tenant.js'
import { streamCaps } from '../../core/journal/stream/stream-caps.js'
import { maxHangingRequests } from '../../core/faults/slow-faults.js'
import { parseAdminToken } from '../../core/access/admin-scopes.js'
import type { Config } from '../config/config.js'
import { ConfigFileError } from '../config/usage-errors.js'
import { DataFileError, readDataFile } from './data-file.js'

/**
 * The tenants of `--tenants FILE` (YAML or JSON), checked against the other
 * keys and tokens and against the server's pools (`budgetMiB`: the memory
 * budget, derived or given). A file that cannot be used stops the start (exit 2,
 * one line naming the file, the entry and the field; never a secret).
 *
 * Read once at start, not on SIGHUP: quotas are guaranteed shares of pools
 * already handed out (sessions made, bytes charged, streams open), and a
 * reload that shrank one would have to take back what a tenant holds. A
 * rolling restart applies a new file (docs/reference/tenants.md).
 */
export const readTenants = (
  config: Pick<Config, 'tenants' | 'apiKeys' | 'adminTokens' | 'maxSessions'>,
  budgetMiB: number | undefined,
): Tenant[] | undefined => {
  const path = config.tenants
  if (path === undefined) return undefined
  let document: unknown
  try {
    document = readDataFile(path)
  } catch (error) {
    throw error instanceof DataFileError ? new ConfigFileError(`--tenants ${error.message}`) : error
  }
  const tokens = config.adminTokens.map((text) => {
    const token = parseAdminToken(text)
    return typeof token === 'string' ? text : token.secret
  })
  const tenants = checkTenants(document, [...config.apiKeys, ...tokens])
  if (typeof tenants === 'string') throw new ConfigFileError(`--tenants ${path}: ${tenants}`)
  const pools = {
    budgetBytes: budgetMiB === undefined ? Infinity : budgetMiB * 2 ** 20,
    maxSessions: config.maxSessions,
    streams: streamCaps.total,
    held: maxHangingRequests,
  }
  const overcommit = checkTenantPools(tenants, pools)
  if (overcommit !== undefined) throw new ConfigFileError(`--tenants ${path}: ${overcommit}`)
  return tenants
}
