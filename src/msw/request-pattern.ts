import { PetstoreMockError } from './errors.js'

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

const originOf = (baseUrl: string, basePath: string): string => {
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    throw new PetstoreMockError(
      `baseUrl must be an absolute URL such as http://localhost:4010 (got ${JSON.stringify(baseUrl)})`,
    )
  }
  const path = url.pathname.replace(/\/+$/, '')
  if (path !== '' && path !== basePath) {
    throw new PetstoreMockError(
      `baseUrl must be an origin such as http://localhost:4010, optionally followed by ${basePath} (got ${JSON.stringify(baseUrl)})`,
    )
  }
  return url.origin
}

/**
 * The URLs the mock answers: the API under its base path, /__admin/… and
 * the served document, each also under a session prefix (`/sessions/<name>`),
 * on `baseUrl`'s origin or on any. msw matches a
 * RegExp against origin + path (no query), in 2.7 as in 3.x, which custom
 * predicate functions (2.11+) would not be.
 */
export const requestPattern = (basePath: string, baseUrl?: string): RegExp => {
  const origin = baseUrl === undefined ? '[a-z][a-z0-9+.-]*://[^/]+' : escape(originOf(baseUrl, basePath))
  // Optionally under a session prefix (/sessions/<name>/…: core/sessions/session-prefix.ts).
  return new RegExp(`^${origin}(?:/sessions/[^/]+)?(?:${escape(basePath)}/|/__admin/|/openapi\\.(?:yaml|json)$)`)
}
