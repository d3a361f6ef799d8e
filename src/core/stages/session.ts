import { setSession } from './select-session.js'
import { addAnswerHeaders } from '../http/respond.js'
import type { SessionRegistry } from '../state/sessions.js'
import { latencyWait } from './latency.js'
import { rateLimitPolicyHeaders } from './rate-limit.js'
import type { Stage } from './stage.js'

/**
 * Selects the request's session (`X-Mock-Session`; 400 for a bad name), puts
 * the session's rate-limit policy on every answer and waits the session's
 * latency before the rest runs.
 */
export const session =
  (sessions: SessionRegistry): Stage =>
  (c, next) => {
    const selected = setSession(c, sessions)
    const policy = selected.rateLimits.policy
    if (policy) addAnswerHeaders(c, rateLimitPolicyHeaders(policy))
    const wait = latencyWait(c)
    return wait === undefined ? next(c) : wait.then(() => next(c))
  }
