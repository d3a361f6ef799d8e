import type { RequestContext } from '../stage.js'
import { keptPrefix, ownCopy } from '../own-copy.js'
import { type ApiError, badRequest } from '../errors.js'

declare module 'hono' {
  interface ContextVariableMap {
    /** The Authorization header, read once (see {@link authorizationOf}); null when absent. */
    authorization: string | null | undefined
  }
}

/**
 * The request's Authorization header, read once: several stages need it
 * (authentication, the deprecation report, the rate limit), and on Node each
 * read of it scans the raw header list (it is one whose repeats are joined).
 */
export const authorizationOf = (c: RequestContext): string | undefined => {
  let value = c.get('authorization')
  if (value === undefined) {
    value = c.req.header('Authorization') ?? null
    c.set('authorization', value)
  }
  return value ?? undefined
}

// RFC 9110 §11.1: the scheme name is case-insensitive. The one reading of a bearer token in the core.
const bearer = /^bearer +(\S+)(.*)$/is
const spaces = /^ *$/

/**
 * The token of an Authorization header `Bearer <token>` (the scheme in any case); undefined for
 * none. With `alone`, only a token that nothing but spaces follows: an API key (see `bearerKey`).
 */
export const bearerToken = (header: string | null | undefined, alone = false): string | undefined => {
  const match = header ? bearer.exec(header) : null
  return match === null || (alone && !spaces.test(match[2]!)) ? undefined : match[1]
}

// Hosts join a repeated header with ", " (Node's list, fetch's Headers): a second credential after a
// comma (`Bearer a, Bearer b`, `Basic x, Bearer y`) is a scheme and a space, where an auth-param is `name=`.
const secondCredential = /,\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+ +[^\s=]/

/** Whether an Authorization header holds two credentials: the header was sent twice. */
export const isRepeatedAuthorization = (header: string | null | undefined): boolean =>
  header != null && header.includes(',') && secondCredential.test(header)

/** The 400 for an Authorization header sent twice (`what`: "API key", "admin token"), which no one key could answer. */
export const repeatedAuthorizationError = (what: string): ApiError =>
  badRequest(`The Authorization header is given more than once; send it once: Authorization: Bearer <${what}>.`)

/** Longest scheme a redacted Authorization keeps (a header of one long word is all scheme). */
export const maxSchemeChars = 32

/** Redacts an Authorization header to its scheme and a hint of the token. */
export const redactAuthorization = (header: string): string => {
  // A client sends the same header on every request: the last answer is kept.
  if (last?.header === header) return last.redacted
  const [whole = '', token = ''] = header.trim().split(/\s+/, 2)
  // Kept in the journal and the deprecation report: a copy, never a view on the header.
  const scheme = keptPrefix(whole, maxSchemeChars)
  last = { header, redacted: ownCopy(token.length >= 8 ? `${scheme} ${token.slice(0, 2)}…` : `${scheme} …`) }
  return last.redacted
}

let last: { header: string; redacted: string } | undefined
