import type { MaybePromise } from '../async/maybe-promise.js'
import type { RateDecision, RateLimitPolicy } from './rate-limit.js'

/** A session's rate limit as it stands: the policy (none: off) and how many API keys it tracks. */
export interface RateLimitState {
  policy: RateLimitPolicy | undefined
  keys: number
}

/** A session's rate limit, as the state port holds it (see sessions/port.ts for what every call may do). */
export interface RateLimitSlice {
  /** The rate-limit policy; undefined while there is none (read on every request). */
  rateLimitPolicy(): MaybePromise<RateLimitPolicy | undefined>
  /**
   * Atomic: counts a request of API key `key` against its window at the
   * session clock's now, unless the window is used up; undefined while the
   * session has no limit.
   */
  hitRateLimit(key: string): MaybePromise<RateDecision | undefined>
  rateLimit(): MaybePromise<RateLimitState>
  /** A new policy (none: off), with every window fresh. */
  setRateLimit(policy: RateLimitPolicy | undefined): MaybePromise<void>
}
