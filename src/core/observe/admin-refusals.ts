import type { Context, MiddlewareHandler } from 'hono'
import type { RequestObserver } from './observer.js'
import { mayBeRefusal, refusalOfAnswer } from './refusal-reason.js'

/**
 * Counts the control plane's refusals (a token's 401 or 403, a stream's cap or quota, a
 * budget's 507) for the metrics, as the `/v1` chains' observe listener counts theirs: the
 * reason read from the answer (refusal-reason.ts), the tenant from the session it named.
 */
export const adminRefusals = (
  requests: Required<Pick<RequestObserver, 'refused'>>,
  tenantOf: (c: Context) => string,
): MiddlewareHandler =>
  async function adminRefusals(c, next) {
    await next()
    if (!mayBeRefusal(c.res.status)) return
    const reason = await refusalOfAnswer(c.res)
    if (reason !== undefined) requests.refused(tenantOf(c), reason)
  }
