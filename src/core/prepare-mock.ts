import type { Handler, MiddlewareHandler } from 'hono'
import { Hono, type HonoRouter } from './http/hono-app.js'
import type { BlankEnv } from 'hono/types'
import { appDefaults, checkAppOptions, OptionError } from './app-options.js'
import { type ClockOption, startClock } from './time/clock.js'
import { ruleValidatorFor, type FaultRuleInput } from './faults/rule-check.js'
import { createLogger, type Logger, requestLog } from './log/log.js'
import { apiKeyAuth } from './access/api-key-auth.js'
import { type CorsOrigins, corsPolicy, corsStage } from './access/cors.js'
import { selectedSession, sessionNameOf } from './sessions/select-session.js'
import type { Pet } from './spec/pet.js'
import type { RateLimitPolicy } from './rate-limit/rate-limit.js'
import { handleError } from './http/respond.js'
import { noScriptAnswers } from './http/no-script.js'
import { redactionOf } from './journal/redaction.js'
import { routeMethods } from './http/route-methods.js'
import { adminPaths, metricsPath } from './admin/admin-paths.js'
import type { McpEndpoint } from './admin/mcp-seam.js'
import type { AdminHostDeps } from './admin/admin-host.js'
import { panelRedirect } from './served/panel-redirect.js'
import { docsRoutes } from './served/docs-routes.js'
import { apiChains } from './pipeline/api-chains.js'
import { petHandlers } from './pets/pet-handlers.js'
import { recordPets } from './pets/record-pets.js'
import { defaultSeed, petChecker, validatePetsInSlices } from './pets/seed.js'
import type { SpecSilences } from './spec/silences.js'
import { bodyFieldNames } from './spec/body-fields.js'
import type { Proxy } from './proxy/create-proxy.js'
import type { SessionStore } from './sessions/port.js'
import { SessionRegistry, type StartState } from './sessions/memory-store.js'
import { clockSettingOf, rateLimitOf, type Snapshot, worldOf } from './sessions/snapshot.js'
import { bundledSpec } from './spec/bundled-spec.js'
import { checkPathPrefix, sessionPrefixPath } from './http/request/session-name.js'
import { defaultSessionTtlSeconds, dropLine } from './sessions/lifecycle.js'
import { type AdminToken, parseAdminToken, unscopedToken } from './access/admin-scopes.js'
import type { Spec } from './spec/spec.js'
import { type Transport, webTransport } from './http/transport.js'
import { withPeekedBodies } from './body/peek-body.js'
import { apiRealm } from './faults/mock-control.js'
import { type LatencyRange, startWorld } from './sessions/world.js'
import type { YamlCodec } from './body/yaml-data.js'
import type { JsonDataReader } from './body/data-body.js'
import { fixturePets, packageVersion } from '../generated/contract.js'
import { coverageModel } from './coverage/coverage-model.js'
import { coverageListener } from './coverage/coverage-listener.js'
import type { ObserveOptions } from './observe/observer.js'
import type { observeListener } from './observe/observe-listener.js'
import { probeRoutes } from './observe/observe-routes.js'
import { whenReady } from './async/maybe-promise.js'
import { traceIdOf } from './http/request/traceparent.js'
import { requestIdMiddleware } from './log/request-id.js'
import { requestFields } from './sessions/request-fields.js'
import type { AdminGate } from './admin/admin-gate.js'
// The variable read here: the request's trace.
import type {} from './notes/request-notes.js'
import { MemoryBudget } from './budget/memory-budget.js'
import type { TenantBudgets } from './budget/tenant-budgets.js'
import type { Tenant } from './tenants/tenant.js'
import { Tenancy } from './tenants/tenancy.js'
import type { ServerPools } from './tenants/check-tenants.js'
import { streamCaps } from './journal/stream/stream-caps.js'
import { maxHangingRequests } from './faults/slow-faults.js'
import { LocalShares } from './tenants/local-shares.js'

/**
 * The app's hono environment: no bindings; its variables are hono's
 * `ContextVariableMap`, which each module that sets one declares.
 */
export type AppEnv = BlankEnv

/** Options of createApp (app.ts); every one has a default. */
export interface AppOptions {
  /** The contract; default: the bundled openapi.yaml. */
  spec?: Spec
  /** Start-up pets; default: the bundled fixtures/pets.yaml. */
  pets?: readonly Pet[]
  /** Accepted API keys; empty (default) accepts any well-formed bearer token. */
  apiKeys?: readonly string[]
  /** Largest accepted request body, bytes (default 1 MiB). */
  bodyLimit?: number
  /** Most pets a session holds (default 100000). */
  maxPets?: number
  /** Most sessions kept (default 100). */
  maxSessions?: number
  /** Fault rules every session starts with (already validated). */
  faults?: readonly FaultRuleInput[]
  /** Latency added to every /v1 answer, ms. */
  delay?: LatencyRange
  /** Seeds fault probabilities, latency and POST /__admin/seed (default 1). */
  seed?: number
  /** Requests kept per session journal (default 1000). */
  journalSize?: number
  /**
   * Header and query parameter names whose values the journal (the event stream, the HAR) never
   * keeps, besides the defaults (journal/redaction.ts: Authorization, Cookie, Set-Cookie, X-Api-Key,
   * `?token=`, `?password=`, …); compared without case, each name in both lists.
   */
  redact?: readonly string[]
  /**
   * The memory budget, MiB: everything clients can make the mock hold, across every session
   * (budget/); writes beyond it are refused with 507, the journal drops its oldest entries.
   * Default: none (the Node host derives one from the process's limits).
   */
  maxMemory?: number
  /** Token required by /__admin routes but health; none (default) leaves them open. */
  adminToken?: string
  /**
   * Scoped admin tokens, each `SECRET`, `SECRET=PATTERN`, either with `:read`, or
   * `SECRET:metrics` (access/admin-scopes.ts); with `adminToken`, any of them is accepted.
   * The tenants' admin tokens are added to them.
   */
  adminTokens?: readonly string[]
  /** The control plane is open on a non-loopback address by choice (--open-admin): health says so. */
  openAdmin?: boolean
  /** Idle time after which a session is dropped, leaving a tombstone (seconds; 0: never; default 14400). */
  sessionTtl?: number
  /** Each API key selects its own session on /v1 (--session-by-key; sessions/session-by-key.ts). */
  sessionByKey?: boolean
  /**
   * Tenants (tenants/): teams, each owning sessions, its /v1 keys and admin
   * tokens, and a guaranteed share of every pool. Default: none, everything as without.
   */
  tenants?: readonly Tenant[]
  /** Origins allowed by CORS outside /__admin ('*', the default, echoes any); false turns CORS off. */
  cors?: CorsOrigins | false
  /** Origins, besides the server's own, whose pages may call /__admin (default: none). */
  adminCorsOrigins?: readonly string[]
  /**
   * Host names /__admin answers to besides localhost, 127.0.0.1 and [::1] (default: none);
   * 'any' turns this DNS-rebinding check off (the Node host does when not listening on loopback).
   */
  allowedHosts?: readonly string[] | 'any'
  /** Default: silent. */
  logger?: Logger
  /** How bodies are read and connections reset; default: web-standard (see transport.ts). */
  transport?: Transport
  /** The mock clock at start-up: an instant, then advancing in real time (or frozen); default: real time. */
  clock?: ClockOption
  /** 'enforce' (default): from its `x-sunset` on the mock clock, an operation answers 410; 'ignore': never. */
  sunset?: 'enforce' | 'ignore'
  /** Requests each API key may make per window on /v1; default: no limit. */
  rateLimit?: RateLimitPolicy
  /** Snapshots as YAML (the Node host's `yamlCodec`); default none: snapshots are JSON only. */
  yaml?: YamlCodec
  /**
   * Reads JSON state and snapshot bodies exactly (the Node host's `jsonDataReader`: on a worker
   * thread); default: parsed on the event loop.
   */
  jsonData?: JsonDataReader
  /** Every session's start-up world (already validated); replaces pets, faults, delay, seed, clock and rate limit. */
  snapshot?: Snapshot
  /** Aborted when the host stops: open event streams end, so that connections can close. */
  signal?: AbortSignal
  /**
   * Stand in front of a real deployment (`createProxy({ url })`, see proxy/): /v1
   * requests are forwarded and its answers returned unchanged, both validated
   * against the contract; the control plane keeps working. Sessions then start
   * with no pets unless `pets` is given.
   */
  proxy?: Proxy
  /** How the places where the spec is silent are read (see silences.ts); default: each switch's default. */
  silences?: Partial<SpecSilences>
  /** What the host watches: request metrics, traces, GET /__admin/metrics, readiness (observe/); default none. */
  observe?: ObserveOptions
  /** Serves `/__admin/mcp` behind the admin guard (the Node host's MCP server, issue 42); default none. */
  mcp?: McpEndpoint
}

/** The defaults of {@link AppOptions}. */
export { appDefaults }

/** A mock whose routes are not registered yet (see {@link prepareMock}), with the state it works on. */
export interface PreparedMock<Store extends SessionStore = SessionRegistry> {
  sessions: Store
  spec: Spec
  /** The requests this mock holds now (hang, drip, journal waits), by tenant. */
  held: LocalShares
  /** Registers the routes, the first time: the app, the same one at every call. */
  build(): Hono<AppEnv>
}

/** Makes a mock's sessions, from every session's start state and the most sessions kept: an implementation of the state port (sessions/port.ts). */
export type StoreFactory<Store extends SessionStore> = (start: StartState, maxSessions: number) => Store

const memoryStore: StoreFactory<SessionRegistry> = (start, maxSessions) => new SessionRegistry(start, maxSessions)

/**
 * How an app makes its tenancy, memory budget and the tenants' admin tokens from the `tenants` option: the tenants checked
 * as data (a host may hand the app any value), each a sentence naming the entry and field when
 * wrong. app.ts's prepareMock and createApp check them (tenants/tenancy-of.ts); msw, one
 * app in a page or a test with nobody to share it with, takes none, so that checking them and the
 * tenants' budgets stay out of its browser bundle (docs/internals/performance.md).
 */
export type TenantParts = (
  tenants: readonly Tenant[] | undefined,
  pools: ServerPools,
  otherSecrets: readonly string[],
) => { tenancy: Tenancy; budget: MemoryBudget | TenantBudgets; tokens: readonly AdminToken[] } | string

/**
 * What tells an app's observer and tracer of each /v1 request (observe/observe-listener.ts), handed in by app.ts;
 * msw observes nothing, so that the listener and the refusal reasons stay out of its browser bundle.
 */
export type ObserveListen = typeof observeListener

/** What a host hands the app it serves besides its options (app.ts: the Node host's and createApp's). */
export interface HostParts {
  /** Tells the host's observer and tracer of each /v1 request; none: observe's requests and tracer are refused. */
  observeListener?: ObserveListen
  /**
   * Makes the router of the app and of its admin host; default: hono's TrieRouter (http/hono-app.ts). app.ts hands
   * in hono's own choice, which a browser bundle need not carry.
   */
  router?: () => HonoRouter
}

/** An app of no tenant: `tenants` given is refused, naming it. */
export const noTenants: TenantParts = (tenants, { budgetBytes }) =>
  tenants === undefined
    ? { tenancy: new Tenancy(), budget: new MemoryBudget(budgetBytes), tokens: [] }
    : "not taken here: tenants share one server (the Node host's --tenants, or createApp)"

/**
 * createApp (app.ts) in two steps, handing out its sessions and contract, for
 * hosts that control the mock without HTTP or register the routes while they
 * wait for something else (src/msw/, while msw starts its worker): now, every
 * option is checked (whatever createApp throws, this throws) and the sessions
 * and middleware are made; `build` registers the routes, most of the work,
 * and cannot fail. The sessions live in memory unless `store` makes them
 * elsewhere: any implementation of the state port goes through the same
 * stages and routes.
 */
export function prepareMock(
  options?: AppOptions,
  store?: undefined,
  tenantParts?: TenantParts,
  host?: HostParts,
): PreparedMock
export function prepareMock<Store extends SessionStore>(
  options: AppOptions,
  store: StoreFactory<Store>,
  tenantParts?: TenantParts,
  host?: HostParts,
): PreparedMock<Store>
export function prepareMock(
  options: AppOptions = {},
  store: StoreFactory<SessionStore> = memoryStore,
  tenantParts: TenantParts = noTenants,
  host?: HostParts,
): PreparedMock<SessionStore> {
  const spec = options.spec ?? bundledSpec()
  const logger = options.logger ?? createLogger('silent')
  // A body a fault rule read ahead is answered again to its stage (body/peek-body.ts).
  const transport = withPeekedBodies(options.transport ?? webTransport)
  const seed = options.seed ?? defaultSeed
  const bodyLimit = options.bodyLimit ?? appDefaults.bodyLimit
  // Throws an OptionError (a TypeError) naming the option.
  const { silences } = checkAppOptions(options)
  // adminToken is one unscoped secret, taken as it is; adminTokens are read (SECRET[=PATTERN][:read]).
  const adminTokens = [
    ...(options.adminToken === undefined ? [] : [unscopedToken(options.adminToken)]),
    ...(options.adminTokens ?? []).map((text) => {
      const token = parseAdminToken(text)
      if (typeof token === 'string') throw new OptionError(`adminTokens: ${token}`)
      return token
    }),
  ]
  const { proxy } = options
  const { snapshot } = options
  const clock = snapshot ? clockSettingOf(snapshot.clock) : startClock(options.clock)
  const rateLimitPolicy = snapshot ? rateLimitOf(snapshot.rateLimit) : options.rateLimit
  const budgetBytes = options.maxMemory === undefined ? Infinity : options.maxMemory * 2 ** 20
  const maxSessions = options.maxSessions ?? appDefaults.maxSessions
  // Throws an OptionError naming the tenant and field.
  const parts = tenantParts(
    options.tenants,
    { budgetBytes, maxSessions, streams: streamCaps.total, held: maxHangingRequests },
    [...(options.apiKeys ?? []), ...adminTokens.map((token) => token.secret)],
  )
  if (typeof parts === 'string') throw new OptionError(`tenants: ${parts}`)
  if (
    host?.observeListener === undefined &&
    (options.observe?.requests !== undefined || options.observe?.tracer !== undefined)
  ) {
    throw new OptionError("observe: its requests and tracer are not taken here (the Node host's, or createApp's)")
  }
  // With tenants, the budget is cut into their guaranteed shares and the share of no tenant.
  const { tenancy, budget } = parts
  // The tenants' admin tokens (none without TenantParts) join the operators'.
  const guardTokens = [...adminTokens, ...parts.tokens]
  // This app's held requests (hang, drip, journal waits): sockets and timers of this process.
  const held = new LocalShares(tenancy, 'held', maxHangingRequests)
  const sessions = store(
    {
      world: snapshot
        ? worldOf(snapshot)
        : startWorld({
            pets: options.pets ?? (proxy ? [] : fixturePets),
            faults: options.faults ?? [],
            latency: options.delay,
            seed,
          }),
      maxPets: options.maxPets ?? appDefaults.maxPets,
      journalSize: options.journalSize ?? appDefaults.journalSize,
      clock,
      ...(rateLimitPolicy && { rateLimit: { ...rateLimitPolicy } }),
      deprecated: spec.operations.filter((op) => op.deprecated),
      sessions: {
        ttlMs: (options.sessionTtl ?? defaultSessionTtlSeconds) * 1000,
        onDrop: (stone) => {
          logger.warn(dropLine(stone))
          options.observe?.requests?.sessionDropped?.(tenancy.ownerOf(stone.name)?.name ?? '')
        },
      },
      budget,
      tenancy,
    },
    maxSessions,
  )
  const handlers = petHandlers(spec.basePath, selectedSession, {
    silences,
    knownFields: bodyFieldNames(spec, 'createPet'),
  })
  // The session prefix (/sessions/<name>/…) is stripped where hono reads the path: http/request/session-name.ts.
  const app = new Hono<AppEnv>({ getPath: sessionPrefixPath, ...(host?.router && { router: host.router() }) })
  const methodsFor = routeMethods(app)
  const onError = handleError(logger)
  const cors = options.cors === false ? undefined : corsStage(corsPolicy(options.cors ?? '*', methodsFor), onError)
  const covered = coverageModel(spec)
  // With tenants, /v1 accepts --api-key's keys (of no tenant) and every tenant's.
  const apiKeys = [...(options.apiKeys ?? []), ...tenancy.apiKeys()]
  const api = apiChains({
    basePath: spec.basePath,
    sessions,
    logger,
    transport,
    onError,
    cors,
    auth: apiKeyAuth({ keys: apiKeys, realm: apiRealm }),
    keyed: apiKeys.length > 0,
    bodyLimit,
    methodsFor,
    enforceSunset: options.sunset !== 'ignore',
    limitRange: silences.limitRange,
    coverage: (operation) => coverageListener(covered.byOperation.get(operation.id)!, { session: selectedSession }),
    sessionByKey: options.sessionByKey === true,
    tenancy,
    held,
    redaction: redactionOf(options.redact),
    ...(proxy && {
      forward: proxy.forward({
        spec,
        transport,
        bodyLimit,
        keepPets: (c, body) => recordPets(selectedSession(c), body, spec.componentValidator('Pet')),
      }),
    }),
    observe: options.observe,
    observeListener: host?.observeListener,
  })
  // What health and the metrics show of the budget: on a shared store, the shared state's.
  const memoryReport = () => sessions.memory?.() ?? budget.report()
  const ready = options.observe?.ready ?? (() => whenReady(sessions.stats(), () => undefined))
  const { metrics } = options.observe ?? {}

  app.onError(onError)
  app.notFound(api.unmatched)
  // Global middleware runs for every request (hono then composes each route's handlers): only the
  // request log when requests are logged; the API's routes are one handler each (pipeline/api-chains.ts).
  const { request } = logger
  const fields = requestFields({
    tenancy,
    transport,
    byKey: options.sessionByKey === true,
    operations: new Map(spec.operations.map((op) => [`${op.method} ${op.routePath}`, op.id])),
  })
  // The trace id logged: the request's span's, else the caller's traceparent's (none: no field).
  if (request)
    app.use(
      requestLog(
        { ...logger, request },
        (c) => c.get('trace')?.traceId ?? traceIdOf(c.req.header('traceparent')),
        fields,
      ),
    )
  // Before the guard: its own answers (a refused Host, a preflight) carry the no-script headers too.
  app.use('/__admin/*', noScriptAnswers)
  // Every control-plane answer carries the request's id (the /v1 chains' first stage puts it on theirs).
  app.use('/__admin/*', requestIdMiddleware)
  // The refusals' count and the guard (admin/admin-gate.ts) are loaded with the admin host, by the first
  // /__admin request (health's too); each keeps its place in the order, and what it answers or throws is hono's
  // to handle there, as before.
  const { requests } = options.observe ?? {}
  const refused = requests?.refused?.bind(requests)
  let gate: Promise<AdminGate> | undefined
  const gated =
    (part: keyof AdminGate): MiddlewareHandler<AppEnv> =>
    async (c, next) => {
      gate ??= import('./admin/admin-host.js').then(({ adminGate }) =>
        adminGate({
          guard: { origins: options.adminCorsOrigins, hosts: options.allowedHosts, methodsFor },
          ...(refused && { refused }),
          tenancy,
        }),
      )
      return (await gate)[part](c, next)
    }
  if (refused) app.use('/__admin/*', gated('refusals'))
  app.use('/__admin/*', gated('guard'))
  // Under /sessions/<name>/__admin/… a bad name is a 400 on every route, health and the panel's files too.
  app.use('/__admin/*', async (c, next) => {
    checkPathPrefix(c)
    await next()
  })
  options.signal?.addEventListener('abort', () => sessions.close())
  // Made now: a document JSON cannot represent (a cycle through YAML aliases) throws here.
  const docs = docsRoutes(spec, cors)
  const validatePet = spec.componentValidator('Pet')
  const validateRule = ruleValidatorFor(spec)
  const chains = spec.operations.map((operation) => {
    const handler = handlers[operation.id]
    if (!handler) throw new Error(`openapi.yaml defines ${operation.id}, which petstore-mock does not implement`)
    return api.operation(operation, handler)
  })
  const adminDeps = (): AdminHostDeps => ({
    ...(host?.router && { router: host.router() }),
    onError,
    notFound: api.unmatched,
    ...(metrics && { metrics }),
    sessions,
    version: packageVersion,
    memory: memoryReport,
    budget,
    bodyLimit,
    maxPets: options.maxPets ?? appDefaults.maxPets,
    transport,
    operations: spec.operations.map((op) => op.id),
    validateRule,
    validateState: (input) => validatePetsInSlices(input, validatePet, 'state', { allowBareArray: false }),
    validatePet,
    start: { seed, clock, rateLimit: rateLimitPolicy },
    ...(options.yaml && { yaml: options.yaml }),
    ...(options.jsonData && { jsonData: options.jsonData }),
    ...(proxy && { proxy: proxy.stats }),
    spec,
    coverage: covered,
    checkPet: petChecker(validatePet),
    scopes: { tokens: guardTokens, logger, sessionNameOf, fields },
    tenancy,
    held,
    ...(options.openAdmin === true && guardTokens.length === 0 && { open: true }),
    mcp: options.mcp,
  })
  // The control plane is an app of its own (admin/admin-host.ts), loaded on first use: the routes
  // are registered here (admin/admin-paths.ts), each handing the request to it.
  let adminHost: Promise<Hono<AppEnv>> | undefined
  const toAdmin: Handler<AppEnv> = async (c) => {
    adminHost ??= import('./admin/admin-host.js').then(({ adminHost }) => adminHost(adminDeps()))
    return (await adminHost).fetch(c.req.raw, c.env)
  }
  const register = (): Hono<AppEnv> => {
    app.route('/', docs)
    app.get('/__admin', panelRedirect)
    // Open like health, so before the admin routes' guard.
    app.route('/__admin/', probeRoutes(ready))
    // The control plane's routes, each to the admin host, loaded on the first /__admin request.
    for (const [method, path] of metrics ? [...adminPaths, metricsPath] : adminPaths) app.on(method, path, toAdmin)
    // And any other request under /__admin: the host's guard and query check answer it first, as they did
    // when its routes were mounted here.
    app.all('/__admin/*', toAdmin)
    spec.operations.forEach((operation, i) => app.on([operation.method], [operation.routePath], chains[i]!))
    return app
  }
  let built: Hono<AppEnv> | undefined
  return { sessions, spec, held, build: () => (built ??= register()) }
}
