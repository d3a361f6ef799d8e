import { ApiError } from '../http/errors.js'
import { formatRate, partitionKey, type RateDecision, type RateLimitPolicy } from './rate-limit.js'
import { authorizationOf, bearerToken } from '../http/request/authorization.js'
import { addAnswerHeaders } from '../http/respond.js'
import type { Answer, Next, RequestContext, Stage } from '../http/stage.js'
import { whenReady } from '../async/maybe-promise.js'
import type { SessionReader } from '../http/request/session-reader.js'
import type { RateLimitSlice } from './rate-limit-slice.js'

// The policy name both fields use (draft-ietf-httpapi-ratelimit-headers).
const policyName = '"default"'

/**
 * Counts an authenticated request against its API key's window on the
 * session's mock clock; beyond the limit, 429 with `Retry-After` (the handler
 * never runs, so nothing changes). Runs after authentication and before
 * validation. Nothing happens while the session has no limit.
 */
export const rateLimit = (session: SessionReader<RateLimitSlice>): Stage => {
  const counted = (policy: RateLimitPolicy | undefined, c: RequestContext, next: Next): Answer =>
    policy
      ? whenReady(session(c).hitRateLimit(partitionKey(bearerToken(authorizationOf(c)) ?? '')), decided, c, next)
      : next(c)
  return (c, next) => whenReady(session(c).rateLimitPolicy(), counted, c, next)
}

const decided = (decision: RateDecision | undefined, c: RequestContext, next: Next): Answer => {
  // The limit was turned off between the two calls (another replica, an admin request).
  if (decision === undefined) return next(c)
  addAnswerHeaders(c, { ratelimit: `${policyName};r=${decision.remaining};t=${decision.resetSeconds}` })
  if (!decision.allowed) {
    throw new ApiError(
      429,
      `Rate limit of ${formatRate(decision.policy)} exceeded for this API key; retry in ${decision.resetSeconds} s.`,
      { headers: { 'Retry-After': String(decision.resetSeconds) } },
    )
  }
  return next(c)
}

const withPolicy = (policy: RateLimitPolicy | undefined, c: RequestContext, next: Next): Answer => {
  if (policy) addAnswerHeaders(c, { 'ratelimit-policy': `${policyName};q=${policy.limit};w=${policy.windowSeconds}` })
  return next(c)
}

/**
 * While the session has a limit, every answer carries `RateLimit-Policy`,
 * errors included: runs right after the session is selected.
 */
export const rateLimitPolicy =
  (session: SessionReader<RateLimitSlice>): Stage =>
  (c, next) =>
    whenReady(session(c).rateLimitPolicy(), withPolicy, c, next)
