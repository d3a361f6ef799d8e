import type { Context, MiddlewareHandler } from 'hono'
import { ApiError } from '../http/errors.js'
import type { Logger } from '../log/log.js'
import { equalsAny } from './constant-time.js'
import { bearerKey, keyFingerprint } from '../http/request/key-fingerprint.js'
import { type AdminToken, scopeOf } from './admin-scopes.js'
import { globMatches } from '../tenants/session-glob.js'
import { isRepeatedAuthorization, repeatedAuthorizationError } from '../http/request/authorization.js'

// The middleware that checks admin tokens, apart from their reading (admin-scopes.ts), which the
// options check needs at start: this goes with the control plane, loaded on first use (admin/admin-host.ts).

const isRead = (method: string): boolean => method === 'GET' || method === 'HEAD'

const challenge = (sent: boolean) => `Bearer realm="petstore-admin"${sent ? ', error="invalid_token"' : ''}`

type Target = { session: string } | { global: string } | { open: string }

/** What a request to the control plane touches: a session by name, or nothing tied to one. */
const targetOf = (c: Context, sessionNameOf: (c: Context) => string | undefined): Target => {
  const path = c.req.path
  if (path === '/__admin/sessions') return { global: 'the session list' }
  if (path.startsWith('/__admin/sessions/')) return { session: path.slice('/__admin/sessions/'.length) }
  if (path === '/__admin/metrics' || path.startsWith('/__admin/metrics/')) return { global: 'the metrics' }
  // The control plane's OpenAPI document is the same for every session: no session's data.
  if (path === '/__admin/openapi.json') return { open: 'the admin API document' }
  return { session: sessionNameOf(c) ?? 'default' }
}

/** Options of {@link adminScopes}. */
export interface AdminScopesOptions {
  tokens: readonly AdminToken[]
  logger: Logger
  /** The session a request names (path prefix or X-Mock-Session; undefined: the default); throws a 400 for a bad name. */
  sessionNameOf: (c: Context) => string | undefined
}

const tokenKey = Symbol('petstore-mock.admin-token')

/** The admin token a request authenticated with; undefined when the control plane is open. */
export const adminTokenOf = (c: Context): AdminToken | undefined =>
  (c.req.raw as Request & { [tokenKey]?: AdminToken })[tokenKey]

/**
 * The control plane's authentication and scopes (mounted after health and
 * the panel's files). With no token configured every request passes (the
 * control plane is open), and changes are still logged.
 */
export const adminScopes = ({ tokens, logger, sessionNameOf }: AdminScopesOptions): MiddlewareHandler => {
  const secrets = tokens.map((t) => t.secret)
  const log = (c: Context, token: AdminToken | undefined, session: string, status: number, note = '') =>
    logger.info?.(
      `admin ${c.req.method} ${c.req.path} session=${session} scope=${JSON.stringify(scopeOf(token))} token=${token?.name ?? 'none'} → ${status}${note}`,
    )
  return async function adminScopes(c, next) {
    let target: Target
    let badName: ApiError | undefined
    try {
      target = targetOf(c, sessionNameOf)
    } catch (error) {
      // A bad or conflicting session name: the selection answers it (400) as on /v1.
      if (tokens.length === 0) return next()
      target = { session: '?' }
      if (!(error instanceof ApiError)) throw error
      badName = error
    }
    const where = 'session' in target ? target.session : '-'
    let token: AdminToken | undefined
    if (tokens.length > 0) {
      const header = c.req.header('Authorization')
      if (isRepeatedAuthorization(header)) throw repeatedAuthorizationError('admin token')
      const sent = bearerKey(header)
      // Every token compared in full, whichever matches (constant-time.ts).
      let index = -1
      if (sent !== undefined) {
        secrets.forEach((secret, i) => {
          if (equalsAny(sent, [secret]) && index === -1) index = i
        })
      }
      if (sent === undefined || index === -1) {
        log(
          c,
          undefined,
          where,
          401,
          sent === undefined ? ' (no admin token)' : ` (unknown token ${keyFingerprint(sent)})`,
        )
        throw new ApiError(
          401,
          sent === undefined
            ? 'Missing admin token; send Authorization: Bearer <admin token>.'
            : 'Invalid admin token.',
          { headers: { 'WWW-Authenticate': challenge(sent !== undefined) } },
        )
      }
      token = tokens[index]!
      // Authenticated: the name's own 400 (or session_conflict), whatever the token's scope, as root gets.
      if (badName !== undefined) throw badName
      const refused = refusal(c, token, target)
      if (refused !== undefined) {
        log(c, token, where, 403)
        throw new ApiError(403, refused)
      }
      ;(c.req.raw as Request & { [tokenKey]?: AdminToken })[tokenKey] = token
    }
    await next()
    if (!isRead(c.req.method) || c.res.status === 401 || c.res.status === 403) log(c, token, where, c.res.status)
  }
}

const refusal = (c: Context, token: AdminToken, target: Target) => {
  if (token.readOnly && !isRead(c.req.method)) {
    return `The admin token ${token.name} is read-only (${scopeOf(token)}): ${c.req.method} ${c.req.path} changes the mock.`
  }
  if (token.pattern === undefined || 'open' in target) return undefined
  if ('global' in target) {
    return `The admin token ${token.name} is scoped to sessions ${token.pattern}: ${target.global} needs an unscoped admin token.`
  }
  if (!globMatches(token.pattern, target.session)) {
    return `The admin token ${token.name} is scoped to sessions ${token.pattern}, not ${target.session}.`
  }
  return undefined
}
