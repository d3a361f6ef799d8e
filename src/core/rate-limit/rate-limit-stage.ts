import { ApiError } from '../http/errors.js'
import type { Context } from 'hono'
import type { AppEnv } from '../app-env.js'
import { formatRate, partitionKey, type RateDecision } from './rate-limit.js'
import { authorizationOf } from '../http/request-authorization.js'
import { addAnswerHeaders } from '../http/respond.js'
import type { Answer, Next, Stage } from '../http/stage.js'

// The policy name both fields use (draft-ietf-httpapi-ratelimit-headers).
const policyName = '"default"'

const bearerToken = (header: string | undefined): string => /^bearer +(\S+)/i.exec(header ?? '')?.[1] ?? ''

/**
 * Counts an authenticated request against its API key's window on the
 * session's mock clock; beyond the limit, 429 with `Retry-After` (the handler
 * never runs, so nothing changes). Runs after authentication and before
 * validation. Nothing happens while the session has no limit.
 */
export const rateLimit = (): Stage => (c, next) => {
  const session = c.get('session')
  const policy = session.rateLimitPolicy()
  if (policy instanceof Promise) return policy.then((p) => (p ? hit(c, next) : next(c)))
  return policy ? hit(c, next) : next(c)
}

const hit = (c: Context<AppEnv>, next: Next): Answer => {
  const decision = c.get('session').hitRateLimit(partitionKey(bearerToken(authorizationOf(c))))
  if (decision instanceof Promise) return decision.then((d) => decided(c, next, d))
  return decided(c, next, decision)
}

const decided = (c: Context<AppEnv>, next: Next, decision: RateDecision | undefined): Answer => {
  // The limit was turned off between the two calls (another replica, an admin request).
  if (decision === undefined) return next(c)
  c.set('rateLimit', decision)
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

/** While the session has a limit, every answer carries `RateLimit-Policy` (set with the session). */
export const rateLimitPolicyHeaders = (policy: { limit: number; windowSeconds: number }): Record<string, string> => ({
  'ratelimit-policy': `${policyName};q=${policy.limit};w=${policy.windowSeconds}`,
})
