import { checkTenantPools, checkTenants, type ServerPools } from './check-tenants.js'
import { Tenancy } from './tenancy.js'
import type { Tenant } from './tenant.js'

/**
 * The tenancy of an app's `tenants` option, checked again as data (a host
 * may hand the app any value): the tenants, then their quotas against the
 * server's pools. One sentence naming the entry and field otherwise.
 */
export const tenancyOf = (
  tenants: readonly Tenant[] | undefined,
  pools: ServerPools,
  otherSecrets: readonly string[],
): Tenancy | string => {
  if (tenants === undefined) return new Tenancy()
  const checked = checkTenants({ tenants }, otherSecrets)
  if (typeof checked === 'string') return checked
  return checkTenantPools(checked, pools) ?? new Tenancy(checked)
}
