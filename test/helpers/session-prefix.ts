import { inject } from 'vitest'
import { isSessionName } from '../../src/core/http/request/session-name.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set in the `prefix` projects: the contract suites send every request through a session path prefix. */
    sessionPrefix: boolean
  }
}

/** Set in the `prefix` projects (vitest.config.ts, vitest.redis.config.ts). */
export const testSessionPrefix: boolean = inject('sessionPrefix') ?? false

// The API and the control plane (the served contract's `servers` name the prefix: test/core/sessions/session-selection.test.ts).
const PREFIXED = /^\/(v1(\/|$|\?)|__admin(\/|$|\?))/

/**
 * A request of the header form (`X-Mock-Session: name`, or none for the
 * default session) rewritten to the path-prefix form (`/sessions/<name>/…`,
 * the header dropped); a name the prefix cannot carry stays a header. The
 * prefix it used, or undefined when the request is left as it was.
 */
export const throughPrefix = (url: string, init: RequestInit): { url: string; init: RequestInit; prefix?: string } => {
  const parsed = new URL(url, 'http://localhost')
  const relative = !/^[a-z]+:/i.test(url)
  if (!PREFIXED.test(parsed.pathname)) return { url, init }
  const headers = new Headers(init.headers)
  const named = headers.get('X-Mock-Session')
  // A bad name (the 400 tests) and a header sent twice stay as they are: only a name travels in a path.
  if (named !== null && !isSessionName(named)) return { url, init }
  headers.delete('X-Mock-Session')
  const prefix = `/sessions/${named ?? 'default'}`
  const rewritten = relative ? `${prefix}${url}` : `${parsed.origin}${prefix}${url.slice(parsed.origin.length)}`
  return { url: rewritten, init: { ...init, headers }, prefix }
}

/**
 * The answer as the header form would have it: a `Location` (and a served
 * document's `servers`) must carry the prefix, which is then taken off so that
 * the suite's own expectations hold unchanged. Throws when an answer lost it.
 */
export const withoutPrefix = async (res: Response, prefix: string, where: string): Promise<Response> => {
  const location = res.headers.get('location')
  // The journal (JSON, HAR) records the exchange as it was: the URL and Location as sent, prefix included.
  const journal = /^\/sessions\/[^/]+\/__admin\/requests/.test(new URL(where.split(' ')[1]!, 'http://x').pathname)
  if (location === null && !journal) return res
  const headers = new Headers(res.headers)
  if (location !== null) {
    if (!location.startsWith(`${prefix}/`)) {
      throw new Error(`${where}: Location ${location} does not keep the session prefix ${prefix}`)
    }
    headers.set('location', location.slice(prefix.length))
  }
  if (res.status === 204 || res.status === 304 || res.body === null) {
    return new Response(null, { status: res.status, statusText: res.statusText, headers })
  }
  let body = await res.text()
  if (journal) body = body.replaceAll(`localhost${prefix}/`, 'localhost/').replaceAll(`"${prefix}/`, '"/')
  if (journal) headers.delete('content-length')
  return new Response(body, { status: res.status, statusText: res.statusText, headers })
}
