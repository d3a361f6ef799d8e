import { setSession } from './select-session.js'
import { addAnswerHeaders } from '../http/respond.js'
import type { Context } from 'hono'
import type { AppEnv } from '../app-env.js'
import type { RateLimitPolicy } from '../rate-limit/rate-limit.js'
import type { ReadAhead, SessionStore } from './port.js'
import { latencyWait } from '../faults/latency.js'
import { rateLimitPolicyHeaders } from '../rate-limit/rate-limit-stage.js'
import type { Answer, Next, Stage } from '../http/stage.js'

/** The read a request's handler will most likely make, guessed from the raw request; undefined: no guess. */
export type ReadAheadOf = (c: Context<AppEnv>) => ReadAhead | undefined

/**
 * Selects the request's session (path prefix, `X-Mock-Session` or, with
 * `byKey`, the API key: select-session.ts; 400 for a bad name), puts
 * the session's rate-limit policy on every answer and waits the session's
 * latency before the rest runs. `readAheadOf`: the read the operation's
 * handler will likely make, named to the store with the selection (port.ts).
 */
export const session =
  (sessions: SessionStore, readAheadOf?: ReadAheadOf, byKey = false): Stage =>
  (c, next) => {
    // Written out rather than with whenReady: the in-memory store answers now, and a request that
    // waits for nothing allocates no closure on its way (the hot path's figures).
    const selected = setSession(c, sessions, readAheadOf?.(c), 'use', byKey)
    if (selected instanceof Promise) return selected.then((s) => withPolicy(c, next, s.rateLimitPolicy()))
    return withPolicy(c, next, selected.rateLimitPolicy())
  }

const withPolicy = (
  c: Context<AppEnv>,
  next: Next,
  policy: RateLimitPolicy | undefined | Promise<RateLimitPolicy | undefined>,
): Answer => {
  if (policy instanceof Promise) return policy.then((p) => withPolicy(c, next, p))
  if (policy) addAnswerHeaders(c, rateLimitPolicyHeaders(policy))
  const wait = latencyWait(c)
  return wait === undefined ? next(c) : wait.then(() => next(c))
}
