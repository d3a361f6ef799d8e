import { keyFingerprint } from '../http/request/key-fingerprint.js'
import type { TenantAccess } from '../tenants/tenant.js'

/**
 * Admin tokens scoped per team (issue 28), and the tenants' (issue 39).
 * `--admin-token` may be repeated; each value is
 *
 * - `SECRET`: everything;
 * - `SECRET=PATTERN`: only sessions whose names match the glob `PATTERN`
 *   (`*` any run of characters, `?` one), e.g. `ta-secret=team-a-*`;
 * - either with `:read` appended: read-only (GET and HEAD: the journal, HAR,
 *   snapshots, state, rules), nothing changed, e.g. `qa-secret=*:read`;
 * - `SECRET:metrics`: `GET /__admin/metrics` only (a scrape token).
 *
 * A tenant's `adminTokens` are scoped to its session globs, with their
 * `access` (`write`, `read`, `metrics`).
 *
 * Missing or wrong token: 401. A token whose scope does not cover the request
 * (another team's session, a change with a read-only token, anything but the
 * metrics with a metrics token): 403. Health and the QA panel's files need no
 * token. Every change and every refusal is logged with the session, the scope
 * and the token's fingerprint (never the secret).
 */
export interface AdminToken {
  secret: string
  /** The session-name globs it covers; undefined: every session and the routes tied to none. */
  patterns: readonly string[] | undefined
  /** `write`: reads and changes; `read`: GET and HEAD only; `metrics`: GET /__admin/metrics only. */
  access: TenantAccess
  /** The tenant whose token it is; undefined: an operator's (`--admin-token`). */
  tenant: string | undefined
  /** How logs name it: `sha256:` and 12 hex digits of the secret. */
  name: string
}

const PATTERN = /^[A-Za-z0-9._*?-]{1,64}$/
// RFC 6750 token68 characters: what a bearer token can carry.
const SECRET = /^[A-Za-z0-9\-._~+/]+=*$/

const shapes = 'an admin token must be SECRET, SECRET=PATTERN, either with :read appended, or SECRET:metrics'

/** Reads `SECRET[=PATTERN][:read]` or `SECRET:metrics`; a sentence saying what is wrong otherwise. */
export const parseAdminToken = (text: string): AdminToken | string => {
  if (text.endsWith(':metrics')) {
    const secret = text.slice(0, -':metrics'.length)
    // A metrics token reads no session: a pattern would mean nothing.
    if (!SECRET.test(secret))
      return `${shapes}; a metrics token takes no =PATTERN, its SECRET of A-Z a-z 0-9 - . _ ~ + / (trailing = allowed)`
    return { secret, patterns: undefined, access: 'metrics', tenant: undefined, name: keyFingerprint(secret) }
  }
  const readOnly = text.endsWith(':read')
  const body = readOnly ? text.slice(0, -':read'.length) : text
  // The pattern follows the last '=' that has text after it: a secret may end with '=' (base64).
  const match = /^(.+?=*)=([^=]+)$/.exec(body)
  const secret = match ? match[1]! : body
  const pattern = match ? match[2] : undefined
  if (!SECRET.test(secret)) {
    return `${shapes}; SECRET of A-Z a-z 0-9 - . _ ~ + / (trailing = allowed)`
  }
  if (pattern !== undefined && !PATTERN.test(pattern)) {
    return `the pattern of an admin token must be 1 to 64 of A-Z a-z 0-9 . _ - and the wildcards * ? (got ${JSON.stringify(pattern)})`
  }
  return {
    secret,
    // `*` is every session: the same as no pattern (the session list and other global routes included).
    patterns: pattern === undefined || pattern === '*' ? undefined : [pattern],
    access: readOnly ? 'read' : 'write',
    tenant: undefined,
    name: keyFingerprint(secret),
  }
}

/** A secret taken as it is (the `adminToken` option): every session, read and write. */
export const unscopedToken = (secret: string): AdminToken => ({
  secret,
  patterns: undefined,
  access: 'write',
  tenant: undefined,
  name: keyFingerprint(secret),
})
