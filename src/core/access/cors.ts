import type { MiddlewareHandler } from 'hono'
import { cors } from 'hono/cors'
import { fromMiddleware, type OnError, type Stage } from '../http/stage.js'
import { addNoScript } from '../http/no-script.js'
import { sessionHeader } from '../http/request/session-name.js'

/** Which origins may read answers: any (the request's own is echoed) or a list. */
export type CorsOrigins = '*' | readonly string[]

/**
 * CORS for browser clients on another origin (hono's cors): every answer to a
 * request with an Origin, errors included, carries the headers; preflights are
 * answered 204 without authentication, allowing the methods of the path.
 */
export const corsPolicy = (origins: CorsOrigins, methodsFor: (path: string) => string[]): MiddlewareHandler =>
  cors({
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
      // A page's code can tell that its request made its session (sessions/lifecycle.ts).
      'X-Mock-Session-Created',
    ],
    maxAge: 600,
  })

/**
 * A CORS policy ({@link corsPolicy}) as a stage, entered only by requests
 * with an Origin: only browsers send one, and CORS headers mean nothing
 * without it. Skipping it also spares every other answer a copy: hono's cors
 * touches the response before the rest runs.
 */
export const corsStage = (policy: MiddlewareHandler, onError: OnError): Stage => {
  const withPolicy = fromMiddleware(policy, onError)
  // A preflight is hono's answer, not the chain's: it gets the no-script headers here.
  return (c, next) =>
    c.req.header('Origin') === undefined ? next(c) : Promise.resolve(withPolicy(c, next)).then(addNoScript)
}
