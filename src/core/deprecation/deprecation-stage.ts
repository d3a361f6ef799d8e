import type { DeprecationClient, FirstCall } from './deprecation-log.js'
import { formatDay } from '../time/instant.js'
import { lifecycleHeaders, replacementOf } from '../spec/operation-lifecycle.js'
import type { Logger } from '../log/log.js'
import { authorizationOf, redactAuthorization } from '../http/request/authorization.js'
import { addAnswerHeaders } from '../http/respond.js'
import type { SpecOperation } from '../spec/spec.js'
import type { Stage } from '../http/stage.js'
import type { SessionReader } from '../http/request/session-reader.js'
import type { DeprecationSlice } from './deprecation-slice.js'

const describeClient = ({ authorization, userAgent }: DeprecationClient): string =>
  `${authorization ?? 'a client without Authorization'} with User-Agent ${userAgent === null ? 'none' : JSON.stringify(userAgent)}`

/**
 * Marks every answer of a deprecated operation, errors included (a 401 too),
 * with `Deprecation`, `Sunset` and a `Link` to the replacement. It changes
 * nothing: it runs before authentication, {@link deprecation} after it.
 */
export const deprecationHeaders = (operation: SpecOperation): Stage => {
  const headers = Object.fromEntries(
    Object.entries(lifecycleHeaders(operation)).map(([name, value]) => [name.toLowerCase(), value]),
  )
  return (c, next) => {
    addAnswerHeaders(c, headers)
    return next(c)
  }
}

/**
 * Counts an authenticated call of a deprecated operation in the session's
 * deprecation report and warns in the log the first time each client (token
 * hint and User-Agent) calls it; {@link deprecationHeaders} marks the answer.
 */
export const deprecation = (
  operation: SpecOperation,
  logger: Logger,
  session: SessionReader<DeprecationSlice>,
): Stage => {
  const until = operation.sunset ? ` and will be removed on ${formatDay(operation.sunset)}` : ''
  const replacement = replacementOf(operation)
  const warn = (first: FirstCall, client: DeprecationClient, name: string): void => {
    if (first === 'client') {
      logger.warn(
        `${operation.id} is deprecated${until}; called by ${describeClient(client)} (session ${name}); use ${replacement} instead`,
      )
    } else if (first === 'overflow') {
      logger.warn(
        `${operation.id}: more distinct clients than the report keeps in session ${name}; further ones are counted as "other" and not logged`,
      )
    }
  }

  return (c, next) => {
    const deprecations = session(c)
    const authorization = authorizationOf(c)
    const client: DeprecationClient = {
      authorization: authorization === undefined ? null : redactAuthorization(authorization),
      userAgent: c.req.header('User-Agent') ?? null,
    }
    // The answer does not wait for the count (only the log does): a store that lives elsewhere sends
    // it with the request's journal entry, one round trip, and tells `warn` when Redis has answered.
    const first = deprecations.noteDeprecatedCall(operation.id, client, Date.now(), warn)
    if (first !== undefined) warn(first, client, deprecations.name)
    return next(c)
  }
}
