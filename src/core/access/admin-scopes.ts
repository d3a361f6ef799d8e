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

/** How a token's scope reads in logs and messages. */
export const scopeOf = (token: AdminToken | undefined): string =>
  token === undefined
    ? 'open'
    : `${token.pattern === undefined ? 'all' : `sessions ${token.pattern}`}${token.readOnly ? ', read-only' : ''}`
