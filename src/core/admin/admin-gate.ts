import type { MiddlewareHandler } from 'hono'
import { adminGuard, type AdminGuardOptions } from '../access/admin-guard.js'
import type { RequestContext } from '../http/stage.js'
import { adminRefusals } from '../observe/admin-refusals.js'
import type { RequestObserver } from '../observe/observer.js'
import { namedSession } from '../sessions/select-session.js'
import type { Tenancy } from '../tenants/tenancy.js'

/** The tenant of a control-plane request (`''`: none): the session of `/__admin/sessions/{name}`, else the one it names. */
export const adminTenantOf = (tenancy: Tenancy, c: RequestContext): string => {
  if (!tenancy.active) return ''
  const path = c.req.path
  const named = path.startsWith('/__admin/sessions/') ? path.slice('/__admin/sessions/'.length) : namedSession(c)
  return tenancy.ownerOf(named)?.name ?? ''
}

/** What {@link adminGate} is made of. */
export interface AdminGateDeps {
  guard: AdminGuardOptions
  /** The host's count of refusals (observe/); none: nothing to count. */
  refused?: RequestObserver['refused']
  tenancy: Tenancy
}

/** The control plane's middleware before its routes, in their order: the refusals' count, then the guard. */
export interface AdminGate {
  refusals: MiddlewareHandler
  guard: MiddlewareHandler
}

/**
 * The middleware every /__admin request meets before its route, made by prepare-mock.ts with the
 * first /__admin request (health's too), loaded with the admin host (admin-host.ts): the count of the control plane's refusals
 * (observe/admin-refusals.ts) and the Host and origin guard (access/admin-guard.ts).
 */
export const adminGate = ({ guard, refused, tenancy }: AdminGateDeps): AdminGate => ({
  refusals: refused
    ? adminRefusals({ refused }, (c) => adminTenantOf(tenancy, c))
    : async (_c, next) => {
        await next()
      },
  guard: adminGuard(guard),
})
