import type { Hono } from 'hono'
import { MemoryBudget } from './budget/memory-budget.js'
import { TenantBudgets } from './budget/tenant-budgets.js'
import {
  type AppEnv,
  type AppOptions,
  type PreparedMock,
  prepareMock as prepareWith,
  type StoreFactory,
  type TenantParts,
  type HostParts,
} from './prepare-mock.js'
import type { SessionStore } from './sessions/port.js'
import { tenancyOf } from './tenants/tenancy-of.js'
import { tenantTokens } from './access/token-scope.js'
import { observeListener } from './observe/observe-listener.js'
import { RegExpRouter } from 'hono/router/reg-exp-router'
import { SmartRouter } from 'hono/router/smart-router'
import { TrieRouter } from 'hono/router/trie-router'

export { appDefaults, type AppEnv, type AppOptions, type PreparedMock, type StoreFactory } from './prepare-mock.js'

// Throws an OptionError naming the tenant and field. With tenants, the budget is cut into their
// guaranteed shares and the share of no tenant.
const withTenants: TenantParts = (tenants, pools, otherSecrets) => {
  const tenancy = tenancyOf(tenants, pools, otherSecrets)
  if (typeof tenancy === 'string') return tenancy
  const { budgetBytes } = pools
  return {
    tenancy,
    budget: tenancy.active ? new TenantBudgets(budgetBytes, tenancy.tenants) : new MemoryBudget(budgetBytes),
    // The tenants' admin tokens join the operators': scoped to their tenant's session globs.
    tokens: tenancy.tenants.flatMap(tenantTokens),
  }
}

// What the Node host and createApp serve: observed when asked, routed as hono's own Hono routes (the
// RegExpRouter, else the TrieRouter, picked on the first request).
const host: HostParts = {
  observeListener,
  router: () => new SmartRouter({ routers: [new RegExpRouter(), new TrieRouter()] }),
}

/**
 * {@link createApp} in two steps (prepare-mock.ts), with the `tenants` option: every option is
 * checked now (whatever createApp throws, this throws), the sessions and middleware made;
 * `build` registers the routes. On `store`'s sessions, else in memory.
 */
export function prepareMock(options?: AppOptions): PreparedMock
export function prepareMock<Store extends SessionStore>(
  options: AppOptions,
  store: StoreFactory<Store>,
): PreparedMock<Store>
export function prepareMock(options: AppOptions = {}, store?: StoreFactory<SessionStore>): PreparedMock<SessionStore> {
  return store ? prepareWith(options, store, withTenants, host) : prepareWith(options, undefined, withTenants, host)
}

/**
 * Builds the Hono app: the contract's operations routed from the document,
 * each one route whose handler is a chain of plain stages (journal → CORS →
 * authenticate → session → rate-limit policy → latency → deprecation → mock
 * controls → rate limit → sunset → read body → validate → handle; see
 * pipeline/api-chains.ts), the served document and the /__admin control
 * plane, each feature's routes (admin/admin-routes.ts).
 * Web `Request` → `Response` only: no socket, no file (see src/node/ for
 * the server).
 */
export const createApp = (options: AppOptions = {}): Hono<AppEnv> => prepareMock(options).build()
