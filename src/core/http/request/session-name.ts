import type { Context } from 'hono'
import { getPath } from 'hono/utils/url'
import { type ApiError, badRequest } from '../errors.js'

/** The header that selects an isolated session. */
export const sessionHeader = 'X-Mock-Session'

// `.` and `..` alone are a path's dot segments, which every URL parser removes (`/sessions/../v1/pets`
// is `/v1/pets`, in browsers, fetch, curl and the server): no path prefix, admin route or panel link
// could name such a session, so none is made.
const SESSION_NAME = /^(?!\.\.?$)[A-Za-z0-9._-]{1,64}$/

/** What a name that travels in a path (a session's, a rule's) is, as the 400s that refuse one say it. */
export const pathNameRule = '1 to 64 of A-Z a-z 0-9 . _ -, not . or ..'

/** Whether a session name is acceptable: {@link pathNameRule}. */
export const isSessionName = (name: string): boolean => SESSION_NAME.test(name)

/**
 * Session selection by path prefix (issue 28): `/sessions/<name>/v1/pets` is
 * session `<name>`'s `/v1/pets`, and the same prefix works for `/__admin`,
 * the served contract and the QA panel. A service under test then picks its
 * session by its base URL alone.
 *
 * The prefix is stripped once, where hono reads the request's path
 * ({@link sessionPrefixPath} is the app's `getPath`): routing, `c.req.path`
 * and every stage see the path without it, and the core is the same
 * `app.fetch` in every host (Node, msw). What was stripped rides on the
 * request itself ({@link sessionPrefixOf}), set only for prefixed requests,
 * so a request without a prefix pays one string comparison.
 */

/** What a request's path prefix named: the session, and the prefix as sent (`/sessions/<name>`). */
export interface SessionPrefix {
  name: string
  prefix: string
}

/** The path segment that starts a session prefix. */
export const sessionsSegment = '/sessions/'

const prefixKey = Symbol('petstore-mock.session-prefix')

type Prefixed = Request & { [prefixKey]?: SessionPrefix }

/**
 * hono's `getPath` with a leading `/sessions/<name>` removed (remembered on
 * the request); any other path as hono reads it. `/sessions/<name>` alone is
 * `/`.
 */
export const sessionPrefixPath = (request: Request): string => {
  const path = getPath(request)
  // charCode 115 is 's': most paths are decided by one comparison.
  if (path.charCodeAt(1) !== 115 || !path.startsWith(sessionsSegment)) return path
  const end = path.indexOf('/', sessionsSegment.length)
  const prefix = end === -1 ? path : path.slice(0, end)
  const name = prefix.slice(sessionsSegment.length)
  if (name === '') return path
  ;(request as Prefixed)[prefixKey] = { name, prefix }
  return end === -1 ? '/' : path.slice(end)
}

/** The session prefix the request's path carried; undefined without one. */
export const sessionPrefixOf = (c: Context): SessionPrefix | undefined => (c.req.raw as Prefixed)[prefixKey]

// A name is at most 64 characters: a longer one is shown cut, so that a 15 KB path is not a 15 KB message.
const shownPrefixChars = sessionsSegment.length + 72

/** The 400 for a path prefix whose session name is not one (control characters, quotes, too long). */
export const badPrefixError = (prefix: string): ApiError => {
  const cut = prefix.length > shownPrefixChars ? `${prefix.slice(0, shownPrefixChars)}…` : prefix
  // Quoted as JSON, and no markup characters as sent: the name is shown, never echoed.
  const shown = JSON.stringify(cut).replace(
    /[<>&]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
  return badRequest(`The session in the path must be ${pathNameRule} (got ${shown}).`)
}

/**
 * Throws {@link badPrefixError} when the request's path prefix names no valid
 * session: every route under a prefix answers it, those that select no
 * session (health, the panel, the served contract) included.
 */
export const checkPathPrefix = (c: Context): void => {
  const prefixed = (c.req.raw as Prefixed)[prefixKey]
  if (prefixed !== undefined && !isSessionName(prefixed.name)) throw badPrefixError(prefixed.prefix)
}

/**
 * The prefix to put before a path the answer names (Location, links, servers): '' without one.
 * Throws {@link badPrefixError} for an invalid name: it is never echoed into a document or a header.
 */
export const pathPrefixOf = (c: Context): string => {
  checkPathPrefix(c)
  return (c.req.raw as Prefixed)[prefixKey]?.prefix ?? ''
}
