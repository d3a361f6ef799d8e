import type { Shaping } from './journal/journal.js'
import type { RateDecision } from './rate-limit/rate-limit.js'
import type { SessionState } from './sessions/port.js'
import type { SpecOperation } from './spec/spec.js'

/** A request's parameters and body after validation against the contract. */
export interface ValidInput {
  params: Record<string, unknown>
  body: unknown
}

/**
 * What middleware hands down to handlers. Read with `c.get()`: hono's `c.var`
 * copies every variable into a new object on each access.
 */
export type AppEnv = {
  Variables: {
    session: SessionState
    operation: SpecOperation | undefined
    input: ValidInput
    /** The JSON body of a request that has one, once parsed. */
    body: unknown
    /** Its text, as read. */
    bodyText: string | undefined
    /** What shaped the answer (latency, override, fault rule), for the journal. */
    shaping: Shaping[]
    /** The Authorization header, read once (see request-authorization.ts); null when absent. */
    authorization: string | null | undefined
    /** The query parameters, parsed once (see request-query.ts). */
    query: Readonly<Record<string, string[]>> | undefined
    /** Where the request stands against the session's rate limit, once counted. */
    rateLimit: RateDecision | undefined
    /** Headers every answer to the request carries, errors included (deprecation, rate limit); lower-case names. */
    answerHeaders: Readonly<Record<string, string>> | undefined
    /** How a proxied exchange departs from the contract (see proxy/), for the journal. */
    violations: string[] | undefined
  }
}
