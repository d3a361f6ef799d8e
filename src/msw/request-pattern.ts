import { PetstoreMockError } from './errors.js'

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The origin of `url` (an origin, optionally followed by the base path); `name` is the option's, for the message. */
export const originOf = (url: string, basePath: string, name: string): string => {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new PetstoreMockError(
      `${name} must be an absolute URL such as http://localhost:4010 (got ${JSON.stringify(url)})`,
    )
  }
  const path = parsed.pathname.replace(/\/+$/, '')
  if (path !== '' && path !== basePath) {
    throw new PetstoreMockError(
      `${name} must be an origin such as http://localhost:4010, optionally followed by ${basePath} (got ${JSON.stringify(url)})`,
    )
  }
  return parsed.origin
}

/**
 * The URLs the mock answers: the API under its base path, /__admin/… and the served document, each
 * also under a session prefix (`/sessions/<name>`), on the given origins (as originOf gives them) or
 * on any ('any'). msw matches a RegExp against origin + path (no query), which custom predicate
 * functions (2.11+) would not be.
 */
export const requestPattern = (basePath: string, origins: readonly string[] | 'any'): RegExp => {
  const origin = origins === 'any' ? '[a-z][a-z0-9+.-]*://[^/]+' : `(?:${[...new Set(origins)].map(escape).join('|')})`
  // Optionally under a session prefix (/sessions/<name>/…: core/http/request/session-name.ts).
  return new RegExp(`^${origin}(?:/sessions/[^/]+)?(?:${escape(basePath)}/|/__admin/|/openapi\\.(?:yaml|json)$)`)
}
