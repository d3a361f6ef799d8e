import type { Context, MiddlewareHandler } from 'hono'
import { ApiError } from '../http/errors.js'
import type { Logger } from '../log/log.js'
import { equalsAny } from './constant-time.js'
import { bearerKey, keyFingerprint } from '../http/request/key-fingerprint.js'

/**
 * Admin tokens scoped per team (issue 28). `--admin-token` may be repeated;
 * each value is
 *
 * - `SECRET`: everything;
 * - `SECRET=PATTERN`: only sessions whose names match the glob `PATTERN`
 *   (`*` any run of characters, `?` one), e.g. `ta-secret=team-a-*`;
 * - either with `:read` appended: read-only (GET and HEAD: the journal, HAR,
 *   snapshots, state, rules), nothing changed, e.g. `qa-secret=*:read`.
 *
 * Missing or wrong token: 401. A token whose scope does not cover the request
 * (another team's session, a change with a read-only token, a route tied to
 * no session with a scoped token): 403. Health and the QA panel's files need
 * no token. Every change and every refusal is logged with the session, the
 * scope and the token's fingerprint (never the secret).
 */
export interface AdminToken {
  secret: string
  /** The session-name glob; undefined: every session and the routes tied to none. */
  pattern: string | undefined
  readOnly: boolean
  /** How logs name it: `sha256:` and 12 hex digits of the secret. */
  name: string
}

const PATTERN = /^[A-Za-z0-9._*?-]{1,64}$/
// RFC 6750 token68 characters: what a bearer token can carry.
const SECRET = /^[A-Za-z0-9\-._~+/]+=*$/

/** Reads `SECRET[=PATTERN][:read]`; a sentence saying what is wrong otherwise. */
export const parseAdminToken = (text: string): AdminToken | string => {
  const readOnly = text.endsWith(':read')
  const body = readOnly ? text.slice(0, -':read'.length) : text
  // The pattern follows the last '=' that has text after it: a secret may end with '=' (base64).
  const match = /^(.+?=*)=([^=]+)$/.exec(body)
  const secret = match ? match[1]! : body
  const pattern = match ? match[2] : undefined
  if (!SECRET.test(secret)) {
    return 'an admin token must be SECRET, SECRET=PATTERN, or either with :read appended; SECRET of A-Z a-z 0-9 - . _ ~ + / (trailing = allowed)'
  }
  if (pattern !== undefined && !PATTERN.test(pattern)) {
    return `the pattern of an admin token must be 1 to 64 of A-Z a-z 0-9 . _ - and the wildcards * ? (got ${JSON.stringify(pattern)})`
  }
  // `*` is every session: the same as no pattern (the session list and other global routes included).
  return { secret, pattern: pattern === '*' ? undefined : pattern, readOnly, name: keyFingerprint(secret) }
}

/** A secret taken as it is (the `adminToken` option): every session, read and write. */
export const unscopedToken = (secret: string): AdminToken => ({
  secret,
  pattern: undefined,
  readOnly: false,
  name: keyFingerprint(secret),
})

/** Whether `name` matches the glob (`*` any run, `?` one character). */
export const globMatches = (pattern: string, name: string): boolean => {
  const source = pattern.replace(/[.]/g, '\\.').replace(/\*/g, '.*').replace(/\?/g, '.')
  return new RegExp(`^${source}$`).test(name)
}

/** How a token's scope reads in logs and messages. */
export const scopeOf = (token: AdminToken | undefined): string =>
  token === undefined
    ? 'open'
    : `${token.pattern === undefined ? 'all' : `sessions ${token.pattern}`}${token.readOnly ? ', read-only' : ''}`

const isRead = (method: string): boolean => method === 'GET' || method === 'HEAD'

const challenge = (sent: boolean) => `Bearer realm="petstore-admin"${sent ? ', error="invalid_token"' : ''}`

type Target = { session: string } | { global: string }

/** What a request to the control plane touches: a session by name, or nothing tied to one. */
const targetOf = (c: Context, sessionNameOf: (c: Context) => string | undefined): Target => {
  const path = c.req.path
  if (path === '/__admin/sessions') return { global: 'the session list' }
  if (path.startsWith('/__admin/sessions/')) return { session: path.slice('/__admin/sessions/'.length) }
  if (path === '/__admin/metrics' || path.startsWith('/__admin/metrics/')) return { global: 'the metrics' }
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
    try {
      target = targetOf(c, sessionNameOf)
    } catch (error) {
      // A bad or conflicting session name: the selection answers it (400) as on /v1.
      if (tokens.length === 0) return next()
      target = { session: '?' }
      if (!(error instanceof ApiError)) throw error
    }
    const where = 'session' in target ? target.session : '-'
    let token: AdminToken | undefined
    if (tokens.length > 0) {
      const sent = bearerKey(c.req.header('Authorization'))
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
  if (token.pattern === undefined) return undefined
  if ('global' in target) {
    return `The admin token ${token.name} is scoped to sessions ${token.pattern}: ${target.global} needs an unscoped admin token.`
  }
  if (!globMatches(token.pattern, target.session)) {
    return `The admin token ${token.name} is scoped to sessions ${token.pattern}, not ${target.session}.`
  }
  return undefined
}
