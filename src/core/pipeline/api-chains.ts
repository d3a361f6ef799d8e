import type { MiddlewareHandler } from 'hono'
import { ApiError } from '../http/errors.js'
import type { Logger } from '../log/log.js'
import { isAdminPath } from '../admin/admin-paths.js'
import { jsonBody } from '../body/json-body.js'
import { errorResponse, respond } from '../http/respond.js'
import { allowHeader } from '../http/route-methods.js'
import type { SessionStore } from '../sessions/port.js'
import { Tenancy } from '../tenants/tenancy.js'
import { LocalShares } from '../tenants/local-shares.js'
import { maxHangingRequests } from '../faults/slow-faults.js'
import type { SpecOperation } from '../spec/spec.js'
import { authenticatedOr, authStage } from '../access/api-key-auth.js'
import { deprecation, deprecationHeaders } from '../deprecation/deprecation-stage.js'
import { journalListener } from '../journal/journal-listener.js'
import { mockControl } from '../faults/mock-control.js'
import { rateLimit, rateLimitPolicy } from '../rate-limit/rate-limit-stage.js'
import { selectedSession, selectSession, tenantOfRequest } from '../sessions/select-session.js'
import { latency } from '../faults/latency.js'
import { readAheadFor } from './read-ahead.js'
import { requestChecks } from '../sessions/checked-first.js'
import {
  answerEvent,
  type AnswerListener,
  chain,
  type Next,
  type OnError,
  type RequestContext,
  type Stage,
} from '../http/stage.js'
import { sunsetGate } from '../deprecation/sunset-stage.js'
import { validateRequest } from '../spec/validate-request.js'
import type { Transport } from '../http/transport.js'
import type { observeListener } from '../observe/observe-listener.js'
import { requestIdStage } from '../log/request-id.js'
import type { ObserveOptions } from '../observe/observer.js'
import type { Redaction } from '../journal/redaction.js'

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
  /**
   * Whether /v1 keys are configured (--api-key, a tenant's apiKeys): with
   * --proxy, the mock then authenticates before anything else too; without,
   * the deployment alone does.
   */
  keyed?: boolean
  bodyLimit: number
  /** The methods a path answers. */
  methodsFor: (path: string) => string[]
  /** Whether operations answer 410 from their `x-sunset` on. */
  enforceSunset: boolean
  /** `--limit-range`: a bounded integer query parameter beyond a bound is refused, or clamped. */
  limitRange?: 'reject' | 'clamp'
  /**
   * With --proxy: what ends each chain instead of the mock's own authentication,
   * body, validation and handler (an operation's, or undefined for any other
   * path under the base path): the deployment answers.
   */
  forward?: (operation: SpecOperation | undefined) => Next
  /** What counts each answer of an operation (contract coverage, coverage/coverage-listener.ts). */
  coverage?: (operation: SpecOperation) => AnswerListener
  /** The host's request observer and tracer (observe/): a listener of the answer when either is set. */
  observe?: Pick<ObserveOptions, 'requests' | 'tracer'> | undefined
  /**
   * Makes that listener (observe/observe-listener.ts), handed in by the host that observes (app.ts): none, no
   * listener (msw observes nothing, and leaves it out of its browser bundle).
   */
  observeListener?: typeof observeListener | undefined
  /** --session-by-key: the API key selects the session (sessions/session-by-key.ts). */
  sessionByKey?: boolean
  /** Who owns which session and key (tenants/). */
  tenancy?: Tenancy
  /** The app's held requests (hang, drip, journal waits) by tenant; default: a pool of its own. */
  held?: LocalShares
  /** The headers and query parameters the journal does not keep (journal/redaction.ts); default: the defaults. */
  redaction?: Redaction
}

/** The chains of the API: one per operation, and one for requests no route answers. */
export interface ApiChains {
  /**
   * The answer event (coverage, journal, observe listen) → CORS → a deprecated operation's headers →
   * auth → session (with tenants, the key's tenant must own it) → rate-limit policy → latency →
   * deprecation count → mock controls → rate limit → sunset → body → validation → `handler`; with
   * --proxy, auth only when keys are configured, no body nor validation, and the deployment answers
   * instead of `handler`.
   */
  operation(operation: SpecOperation, handler: Next): Next
  /**
   * For a path with routes: OPTIONS (not a CORS preflight) 204 with Allow, another method 405 with
   * Allow; else 404. Under the base path, an authenticated request is journaled like operations in a
   * session that exists, and a refusal (404, 405) makes no session; one whose credentials fail gets the
   * same answer with no session (with --proxy and keys: 401).
   */
  unmatched: Next
}

/** Builds the chains of the API's routes from their stages. */
export const apiChains = (options: ApiChainsOptions): ApiChains => {
  const { basePath, sessions, logger, transport, onError, cors, methodsFor } = options
  const authenticate = authStage(options.auth, onError)
  const body = jsonBody(options.bodyLimit, transport)
  // Each stage reads its own slice of the session the request selected: selectedSession, whole here.
  const select = { byKey: options.sessionByKey === true, tenancy: options.tenancy }
  const session = selectSession(sessions, undefined, select)
  const policy = rateLimitPolicy(selectedSession)
  const delay = latency(selectedSession)
  const limit = rateLimit(selectedSession)
  const journalOptions = { transport, session: selectedSession, redaction: options.redaction }
  const { forward } = options
  const held = options.held ?? new LocalShares(options.tenancy ?? new Tenancy(), 'held', maxHangingRequests)
  const requestId = requestIdStage(transport)
  const tenantOf = options.tenancy?.active ? tenantOfRequest(options.tenancy, select.byKey) : undefined

  // One stage watches the answer; coverage, the journal and the metrics listen, in that order.
  const watch = (op: SpecOperation | undefined): Stage | undefined =>
    answerEvent(
      [
        op && options.coverage?.(op),
        journalListener(op, journalOptions),
        options.observeListener?.(op, {
          requests: options.observe?.requests,
          tracer: options.observe?.tracer,
          route: op ? `${basePath}${op.path}` : null,
          proxied: forward !== undefined,
          session: selectedSession,
          ...(tenantOf && { tenantOf }),
        }),
      ],
      onError,
    )
  const controls = (op: SpecOperation): (Stage | undefined)[] => [
    policy,
    delay,
    op.deprecated ? deprecation(op, logger, selectedSession) : undefined,
    mockControl(op, {
      allow: () => allowHeader(methodsFor(op.routePath)),
      transport,
      onError,
      session: selectedSession,
      bodyLimit: options.bodyLimit,
      held,
    }),
  ]
  // A deprecated operation's every answer says so, a 401 included (the contract's lifecycle headers).
  const marks = (op: SpecOperation): Stage | undefined => (op.deprecated ? deprecationHeaders(op) : undefined)
  const sunset = (op: SpecOperation): Stage | undefined =>
    op.sunset && options.enforceSunset ? sunsetGate(op, op.sunset, selectedSession) : undefined

  // Authentication comes first (issue 39): a request whose credentials fail selects no session, so it
  // makes none, uses no rule or override, moves no rate-limit window and is counted and journaled nowhere.
  /** The mock's own chain: it authenticates, reads and validates, and its handler answers. */
  // The request's own checks (body, validation) run before a new session is made: one they refuse makes none.
  const mockStages = (op: SpecOperation): (Stage | undefined)[] => {
    const checks = requestChecks(op.requestBody ? body : undefined, validateRequest(op, options.limitRange))
    return [
      requestId,
      watch(op),
      cors,
      marks(op),
      authenticate,
      selectSession(sessions, readAheadFor(op), { ...select, checks }),
      ...controls(op),
      limit,
      sunset(op),
      checks.stage,
    ]
  }
  // With keys configured, the mock authenticates a proxied request too: isolation and "a refused request
  // changes nothing" do not depend on the deployment. Without, only the deployment can judge.
  const proxyAuth = options.keyed === true ? authenticate : undefined
  /** With --proxy: the deployment authenticates, reads and validates; its answer ends the chain. */
  const proxyStages = (op: SpecOperation): (Stage | undefined)[] => [
    requestId,
    watch(op),
    cors,
    marks(op),
    proxyAuth,
    session,
    ...controls(op),
    limit,
    sunset(op),
  ]
  const operation = (op: SpecOperation, handler: Next): Next =>
    forward === undefined ? chain(mockStages(op), handler) : chain(proxyStages(op), forward(op))

  const notFound = (c: RequestContext): Response => {
    const methods = methodsFor(c.req.path)
    if (methods.length === 0 || methods.includes(c.req.method)) {
      return errorResponse(c, new ApiError(404, `No route for ${c.req.method} ${c.req.path}.`))
    }
    const allow = allowHeader(methods)
    // RFC 9110 §9.3.7: OPTIONS without a preflight's Origin asks what the path supports.
    if (c.req.method === 'OPTIONS') return respond(c, null, 204, { allow })
    // RFC 9110 §15.5.6: a 405 must carry Allow.
    return errorResponse(
      c,
      new ApiError(405, `${c.req.method} is not allowed on ${c.req.path}; use ${methods.join(', ')}.`, {
        headers: { Allow: allow },
      }),
    )
  }
  // No route needs no key (an OPTIONS asks what a path supports): without valid credentials the same
  // answer, from no session; with --proxy and keys, the mock's 401 rather than the deployment's answer.
  const gate = forward ? proxyAuth : authenticatedOr(authenticate, notFound)
  // No route refuses the request (404, 405) before a session that does not exist yet is made: it makes
  // none. An OPTIONS asking what a path supports (204) is no refusal: it goes on, and is answered at the end.
  const noRoute = requestChecks(undefined, (c, next) => {
    const answer = notFound(c)
    return answer.status === 204 ? next(c) : answer
  })
  const api = forward
    ? chain([requestId, watch(undefined), cors, gate, session, policy, delay], forward(undefined))
    : chain(
        [
          requestId,
          watch(undefined),
          cors,
          gate,
          selectSession(sessions, undefined, { ...select, checks: noRoute }),
          policy,
          delay,
          noRoute.stage,
        ],
        notFound,
      )
  const other = chain([cors], notFound)
  const isApiPath = (path: string) => path === basePath || path.startsWith(`${basePath}/`)
  // The control plane has its own CORS policy (admin-guard.ts).
  const unmatched: Next = (c) => (isAdminPath(c.req.path) ? notFound(c) : isApiPath(c.req.path) ? api(c) : other(c))

  return { operation, unmatched }
}
