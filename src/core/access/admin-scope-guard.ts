import type { Context, MiddlewareHandler } from 'hono'
import { ApiError } from '../http/errors.js'
import { type LogFields, type Logger, loggable } from '../log/log.js'
import { equalsAny } from './constant-time.js'
import { bearerKey, keyFingerprint } from '../http/request/key-fingerprint.js'
import type { AdminToken } from './admin-scopes.js'
import { scopeOf, tokenCovers } from './token-scope.js'
import { setSessionScope } from '../http/request/session-scope.js'
import { isRepeatedAuthorization, repeatedAuthorizationError } from '../http/request/authorization.js'
import { isViaMcp } from '../http/request/via-mcp.js'

// The middleware that checks admin tokens, apart from their reading (admin-scopes.ts), which the
// options check needs at start: this goes with the control plane, loaded on first use (admin/admin-host.ts).

const isRead = (method: string): boolean => method === 'GET' || method === 'HEAD'

const challenge = (sent: boolean) => `Bearer realm="petstore-admin"${sent ? ', error="invalid_token"' : ''}`

type Target = { session: string } | { global: 'the session list' | 'the metrics' } | { open: string } | { mcp: true }

/** What a request to the control plane touches: a session by name, or nothing tied to one. */
const targetOf = (c: Context, sessionNameOf: (c: Context) => string | undefined): Target => {
  const path = c.req.path
  if (path === '/__admin/sessions') return { global: 'the session list' }
  if (path.startsWith('/__admin/sessions/')) return { session: path.slice('/__admin/sessions/'.length) }
  if (path === '/__admin/metrics' || path.startsWith('/__admin/metrics/')) return { global: 'the metrics' }
  // The control plane's OpenAPI document is the same for every session: no session's data.
  if (path === '/__admin/openapi.json') return { open: 'the admin API document' }
  // The MCP endpoint (issue 42) reaches no session itself: each tool's request meets this guard again.
  if (path === '/__admin/mcp') return { mcp: true }
  return { session: sessionNameOf(c) ?? 'default' }
}

/** Options of {@link adminScopes}. */
export interface AdminScopesOptions {
  tokens: readonly AdminToken[]
  logger: Logger
  /** The session a request names (path prefix or X-Mock-Session; undefined: the default); throws a 400 for a bad name. */
  sessionNameOf: (c: Context) => string | undefined
  /**
   * The request's log fields (request id, client, tenant, token fingerprint, session, action,
   * outcome), written beside each audit line's text; absent: the text only.
   */
  fields?: (c: Context) => LogFields
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
export const adminScopes = ({ tokens, logger, sessionNameOf, fields }: AdminScopesOptions): MiddlewareHandler => {
  const secrets = tokens.map((t) => t.secret)
  // The text as before, and beside it the fields; a refusal's outcome is its code (its answer is not made yet).
  const log = (
    c: Context,
    token: AdminToken | undefined,
    session: string,
    status: number,
    note = '',
    refused?: 'unauthorized' | 'forbidden',
  ) =>
    logger.info?.(
      `admin ${c.req.method} ${loggable(c.req.path)} session=${loggable(session)} scope=${JSON.stringify(scopeOf(token))} token=${token?.name ?? 'none'}${isViaMcp(c.req.raw) ? ' via=mcp' : ''} → ${status}${note}`,
      fields && {
        ...fields(c),
        session,
        action: `${c.req.method} ${c.req.path}`,
        ...(isViaMcp(c.req.raw) && { via: 'mcp' }),
        ...(refused !== undefined && { outcome: refused }),
      },
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
          'unauthorized',
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
        log(c, token, where, 403, '', 'forbidden')
        throw new ApiError(403, refused)
      }
      ;(c.req.raw as Request & { [tokenKey]?: AdminToken })[tokenKey] = token
      // A scoped token lists the sessions of its scope only (the routes tied to one are checked above).
      const scoped = token
      if (scoped.patterns !== undefined) setSessionScope(c, (name) => tokenCovers(scoped, name))
    }
    await next()
    if (!isRead(c.req.method) || c.res.status === 401 || c.res.status === 403) log(c, token, where, c.res.status)
  }
}

/** Why the token's scope does not cover the request, if it does not; never naming what lies outside the scope for a tenant's token. */
const refusal = (c: Context, token: AdminToken, target: Target) => {
  if (token.access === 'metrics') {
    return 'global' in target && target.global === 'the metrics' && isRead(c.req.method)
      ? undefined
      : `The admin token ${token.name} (${scopeOf(token)}) reads GET /__admin/metrics only.`
  }
  // Any token but a metrics one speaks MCP: a read token is listed the read tools only, and each tool is guarded.
  if ('mcp' in target) return undefined
  if (token.access === 'read' && !isRead(c.req.method)) {
    return `The admin token ${token.name} is read-only (${scopeOf(token)}): ${c.req.method} ${c.req.path} changes the mock.`
  }
  if (token.patterns === undefined || 'open' in target) return undefined
  const globs = token.patterns.join(' ')
  if ('global' in target) {
    // The session list answers, narrowed to the scope (session-scope.ts).
    if (target.global === 'the session list') return undefined
    return `The admin token ${token.name} is scoped to sessions ${globs}: ${target.global} needs an unscoped admin token or a metrics token.`
  }
  if (tokenCovers(token, target.session)) return undefined
  // A tenant's token is told its own scope, not whose the session is.
  return token.tenant === undefined
    ? `The admin token ${token.name} is scoped to sessions ${globs}, not ${target.session}.`
    : `The admin token ${token.name} of tenant ${token.tenant} reaches only its own sessions (${globs}).`
}
