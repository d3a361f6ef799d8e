import type { MiddlewareHandler } from 'hono'
import { ApiError } from '../http/errors.js'
import type { Logger } from '../http/log.js'
import { isAdminPath } from '../stages/admin-guard.js'
import { jsonBody } from '../stages/json-body.js'
import { errorResponse } from '../http/respond.js'
import type { SessionStore } from '../state/port.js'
import type { SpecOperation } from '../spec/spec.js'
import { auth } from '../stages/auth.js'
import { deprecation } from '../stages/deprecation.js'
import { journal } from '../stages/journal.js'
import { mockControl } from '../stages/mock-control.js'
import { rateLimit } from '../stages/rate-limit.js'
import { session } from '../stages/session.js'
import { chain, type Next, type OnError, type Stage } from '../stages/stage.js'
import { sunsetGate } from '../stages/sunset.js'
import { validateRequest } from '../stages/validate-request.js'
import type { Transport } from '../http/transport.js'

/** What the chains of the API's routes are built from. */
export interface ApiChainsOptions {
  basePath: string
  sessions: SessionStore
  logger: Logger
  transport: Transport
  onError: OnError
  /** The CORS stage; none when CORS is off. */
  cors: Stage | undefined
  /** Authentication (a hono middleware: bearerAuth). */
  auth: MiddlewareHandler
  bodyLimit: number
  /** The methods a path answers. */
  methodsFor: (path: string) => string[]
  /** Whether operations answer 410 from their `x-sunset` on. */
  enforceSunset: boolean
}

/** The chains of the API: one per operation, and one for requests no route answers. */
export interface ApiChains {
  /** journal → CORS → session → deprecation → mock controls → auth → rate limit → sunset → body → validation → `handler`. */
  operation(operation: SpecOperation, handler: Next): Next
  /** 405 with Allow when the path answers other methods, else 404; under the base path journaled like operations. */
  unmatched: Next
}

/** Builds the chains of the API's routes from their stages. */
export const apiChains = (options: ApiChainsOptions): ApiChains => {
  const { basePath, sessions, logger, transport, onError, cors, methodsFor } = options
  const authenticate = auth(options.auth, onError)
  const body = jsonBody(options.bodyLimit, transport)
  const selectSession = session(sessions)
  const limit = rateLimit()

  const operation = (op: SpecOperation, handler: Next): Next =>
    chain(
      [
        journal(op, transport, onError),
        cors,
        selectSession,
        op.deprecated ? deprecation(op, logger) : undefined,
        mockControl(op, { allow: () => methodsFor(op.routePath).join(', '), transport, onError }),
        authenticate,
        limit,
        op.sunset && options.enforceSunset ? sunsetGate(op, op.sunset) : undefined,
        op.requestBody ? body : undefined,
        validateRequest(op),
      ],
      handler,
    )

  const notFound: Next = (c) => {
    const methods = methodsFor(c.req.path)
    if (methods.length === 0 || methods.includes(c.req.method)) {
      return errorResponse(c, new ApiError(404, `No route for ${c.req.method} ${c.req.path}.`))
    }
    // RFC 9110 §15.5.6: a 405 must carry Allow.
    const allow = methods.join(', ')
    return errorResponse(
      c,
      new ApiError(405, `${c.req.method} is not allowed on ${c.req.path}; use ${allow}.`, {
        headers: { Allow: allow },
      }),
    )
  }
  const api = chain([journal(undefined, transport, onError), cors, selectSession], notFound)
  const other = chain([cors], notFound)
  const isApiPath = (path: string) => path === basePath || path.startsWith(`${basePath}/`)
  // The control plane has its own CORS policy (admin-guard.ts).
  const unmatched: Next = (c) => (isAdminPath(c.req.path) ? notFound(c) : isApiPath(c.req.path) ? api(c) : other(c))

  return { operation, unmatched }
}
