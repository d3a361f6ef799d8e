import type { MiddlewareHandler } from 'hono'
import type { Logger } from '../log.js'
import type { SpecOperation } from '../spec/spec.js'

/**
 * Marks every answer of a deprecated operation, errors included, with
 * `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and a `Link` to the
 * replacement; warns in the log the first time the operation is used.
 */
export const deprecation = (operation: SpecOperation, logger: Logger): MiddlewareHandler => {
  const replacement = operation.replacement ?? 'the documented replacement'
  // RFC 9745: a date in the past (the spec gives none) means "deprecated now".
  const headers: [string, string][] = [['Deprecation', '@0']]
  if (operation.sunset) headers.push(['Sunset', operation.sunset.toUTCString()])
  const link = operation.replacement?.split(' ')[1]?.replace(/\?.*$/, '')
  if (link) headers.push(['Link', `<${link}>; rel="successor-version"`])
  let warned = false
  return async function deprecation(c, next) {
    if (!warned) {
      warned = true
      const until = operation.sunset ? `, to be removed on ${operation.sunset.toUTCString()}` : ''
      logger.warn(
        `${operation.id} (${operation.method} ${operation.routePath}) is deprecated${until}; use ${replacement}`,
      )
    }
    await next()
    for (const [name, value] of headers) c.res.headers.set(name, value)
  }
}
