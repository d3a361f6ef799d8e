import type { Context, MiddlewareHandler } from 'hono'
import { ApiError } from '../http/errors.js'
import { corsPolicy } from './cors.js'

/** Host names that always reach the admin API: only this machine answers to them. */
export const loopbackHostNames: readonly string[] = ['localhost', '127.0.0.1', '[::1]']

/** Health and its liveness and readiness probes (observe/observe-routes.ts). */
const probePaths: readonly string[] = ['/__admin/health', '/__admin/health/live', '/__admin/health/ready']

/** Options of {@link adminGuard}. */
export interface AdminGuardOptions {
  /** Origins, besides the server's own, whose pages may call the admin API (CORS included); default none. */
  origins?: readonly string[] | undefined
  /**
   * Host names answered besides {@link loopbackHostNames} (`.example.com`: that domain and its
   * subdomains; a `*` label: any one label, `petstore-mock.*.svc`), default none; `'any'` turns the
   * DNS-rebinding check off.
   */
  hosts?: readonly string[] | 'any' | undefined
  /** Paths answered whatever the Host (default: health and its probes): probes reach them by IP address or service name. */
  anyHostPaths?: readonly string[]
  /** The methods a path answers, for preflights of allowed origins. */
  methodsFor: (path: string) => string[]
}

/** Whether `hostname` is `pattern` with each `*` label standing for one label (`petstore-mock.*.svc`). */
const labelsMatch = (hostname: string, pattern: string): boolean => {
  const labels = hostname.split('.')
  const wanted = pattern.split('.')
  return (
    labels.length === wanted.length &&
    wanted.every((label, i) => label === labels[i] || (label === '*' && labels[i] !== ''))
  )
}

const hostAllowed = (hostname: string, allowed: readonly string[]): boolean =>
  allowed.some(
    (name) =>
      hostname === name ||
      (name.startsWith('.') && `.${hostname}`.endsWith(name)) ||
      (name.includes('*') && labelsMatch(hostname, name)),
  )

// Header values end up in the message: bounded, so a refusal is never larger than its request.
const quoted = (value: string): string => JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}…` : value)

/** The options, resolved. */
interface Policy {
  origins: readonly string[]
  /** Undefined: any Host. */
  hosts: readonly string[] | undefined
  anyHostPaths: readonly string[]
}

/**
 * Why a request to the control plane is refused, if it is: a Host this
 * server does not answer to (DNS rebinding), or a browser request from a page
 * of another site or origin that is not explicitly allowed. Requests without
 * Origin and Sec-Fetch-Site (curl, test code, other services) pass.
 */
const refusal = (c: Context, { origins, hosts, anyHostPaths }: Policy): string | undefined => {
  // The URL, not the Host header: for an absolute-form request target the target wins (RFC 9112 §3.2.2).
  const url = new URL(c.req.url)
  if (hosts && !anyHostPaths.includes(c.req.path) && !hostAllowed(url.hostname, hosts)) {
    return `Host ${quoted(url.host)} is not allowed on /__admin (DNS-rebinding protection); use localhost or 127.0.0.1, or allow the name with --allowed-hosts.`
  }
  const origin = c.req.header('Origin')
  if (origin !== undefined && origins.includes(origin)) return undefined
  const site = c.req.header('Sec-Fetch-Site')
  // same-site means another origin of the same site (another port of localhost, say).
  if (site === 'cross-site' || site === 'same-site') {
    return `Requests to /__admin from pages of another origin are refused (Sec-Fetch-Site: ${site}); allow an origin with --admin-cors-origin.`
  }
  if (origin !== undefined && origin !== url.origin) {
    return `Requests to /__admin from pages of another origin are refused (Origin: ${quoted(origin)}); allow an origin with --admin-cors-origin.`
  }
  return undefined
}

/**
 * Keeps drive-by browsers off the control plane: answers 403 `forbidden`
 * before anything runs (so a refused request changes nothing) to requests
 * with a foreign Host, and to cross-origin browser requests, preflights
 * included. Only the configured origins get CORS headers.
 */
export const adminGuard = (options: AdminGuardOptions): MiddlewareHandler => {
  const { hosts = [], origins = [], anyHostPaths = probePaths } = options
  const policy: Policy = {
    origins,
    hosts: hosts === 'any' ? undefined : [...loopbackHostNames, ...hosts.map((name) => name.toLowerCase())],
    anyHostPaths,
  }
  const cors = corsPolicy(origins, options.methodsFor)
  return async function adminGuard(c, next) {
    const refused = refusal(c, policy)
    if (refused !== undefined) throw new ApiError(403, refused)
    const origin = c.req.header('Origin')
    return origin !== undefined && origins.includes(origin) ? cors(c, next) : next()
  }
}

/** The security headers of an HTML page of the control plane (the QA panel). */
export const panelHeaders: Readonly<Record<string, string>> = {
  // default-src 'self' forbids inline script and style: the page loads its code from files.
  'Content-Security-Policy': "default-src 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
}

/**
 * Sets {@link panelHeaders} on the answers of the routes it guards;
 * `directives` are appended to the Content-Security-Policy (what the page
 * needs beyond 'self', for example `img-src 'self' data:`).
 */
export const panelSecurityHeaders = (directives?: string): MiddlewareHandler =>
  async function panelSecurityHeaders(c, next) {
    await next()
    for (const [name, value] of Object.entries(panelHeaders)) c.res.headers.set(name, value)
    if (directives)
      c.res.headers.set('Content-Security-Policy', `${panelHeaders['Content-Security-Policy']}; ${directives}`)
  }
