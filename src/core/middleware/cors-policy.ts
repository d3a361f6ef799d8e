import type { MiddlewareHandler } from 'hono'
import { cors } from 'hono/cors'
import { sessionHeader } from './select-session.js'

/** Which origins may read answers: any (the request's own is echoed) or a list. */
export type CorsOrigins = '*' | readonly string[]

/**
 * CORS for browser clients on another origin (hono's cors): every answer to a
 * request with an Origin, errors included, carries the headers; preflights are
 * answered 204 without authentication, allowing the methods of the path.
 * Paths for which `skip` is true are left alone (they have their own policy).
 */
export const corsPolicy = (
  origins: CorsOrigins,
  methodsFor: (path: string) => string[],
  skip: (path: string) => boolean = () => false,
): MiddlewareHandler => {
  const policy = cors({
    origin: (origin) => (origin && (origins === '*' || origins.includes(origin)) ? origin : null),
    allowMethods: (_origin, c) => methodsFor(c.req.path),
    allowHeaders: ['Authorization', 'Content-Type', 'Prefer', sessionHeader],
    exposeHeaders: [
      'Location',
      'Deprecation',
      'Sunset',
      'Link',
      'WWW-Authenticate',
      'Retry-After',
      'Allow',
      'RateLimit-Policy',
      'RateLimit',
    ],
    maxAge: 600,
  })
  // Only browsers send Origin, and CORS headers mean nothing without it. Skipping the rest also
  // spares every other answer a copy: hono's cors touches the response before the handler runs.
  return async function corsPolicy(c, next) {
    if (c.req.header('Origin') === undefined || skip(c.req.path)) return next()
    return policy(c, next)
  }
}
