import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.js'
import { addAnswerHeaders } from '../respond.js'
import type { SessionRegistry } from '../sessions.js'
import type { Transport } from '../transport.js'
import { closeRecord, openRecord } from './journal-request.js'
import { latencyWait } from './latency.js'
import { rateLimitPolicyHeaders } from './rate-limit.js'
import { setSession } from './select-session.js'

/**
 * What every request under the API's base path goes through first: its
 * session selected (`X-Mock-Session`), the session's rate-limit policy put on
 * every answer, its journal entry opened, the session's latency waited; then
 * the rest of the pipeline; then the entry recorded. One stage rather than
 * four: each stage costs an async call and a promise per request.
 */
export const apiRequest = (sessions: SessionRegistry, transport: Transport): MiddlewareHandler<AppEnv> =>
  async function apiRequest(c, next) {
    const session = setSession(c, sessions)
    const policy = session.rateLimits.policy
    if (policy) addAnswerHeaders(c, rateLimitPolicyHeaders(policy))
    const open = openRecord(c)
    let reset = false
    try {
      const wait = latencyWait(c)
      if (wait !== undefined) await wait
      await next()
    } catch (error) {
      reset = true
      throw error
    } finally {
      await closeRecord(c, open, reset, transport)
    }
  }
