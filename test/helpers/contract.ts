import type { Hono } from 'hono'
import type { AppEnv } from '../../src/core/app.js'
import { type AppOptions, createApp, loadSpec, type Spec, yamlCodec } from '../../src/index.js'
import { prepareMock } from '../../src/core/app.js'
import { nodeTransport } from '../../src/node/server/node-transport.js'
import { adminDocumentedStatuses, assertAdminDocument } from './admin-document.js'
import { testLoadBalanced, testReplicaStores, testStore } from './test-store.js'
import { testSessionPrefix, throughPrefix, withoutPrefix } from './session-prefix.js'
import { bearer } from './auth.js'

const balanced = testLoadBalanced ? await import('./load-balanced.js') : undefined

/** The bundled contract, loaded once per test file. */
export const spec: Spec = loadSpec()

const errorValidator = spec.componentValidator('Error')

const routeOf = (spec: Spec, method: string, path: string) =>
  spec.operations.find(
    (op) => op.method === method && new RegExp(`^${op.routePath.replace(/:[^/]+/g, '[^/]+')}$`).test(path),
  )

// A removed operation's 410 (real or forced) says `gone` and points to what replaces it.
const assertGone = (where: string, body: { code?: unknown }, res: Response): void => {
  if (body.code !== 'gone') throw new Error(`${where}: Error.code ${JSON.stringify(body.code)}, not "gone"`)
  for (const header of ['sunset', 'link']) {
    if (!res.headers.get(header)) throw new Error(`${where}: a 410 of an operation with a sunset lacks ${header}`)
  }
}

/** A route beyond the contract's operations and the admin API's, and the 2xx/3xx answers the mock documents for it. */
interface DocumentedRoute {
  method: string
  path: RegExp
  statuses: number[]
}

/**
 * The 2xx and 3xx answers the mock documents beyond the contract's operations and the admin API's
 * (admin-openapi.yaml): the contract itself at `GET /openapi.yaml` and `/openapi.json` (200:
 * admin-api.md), and `OPTIONS` on any path (204, with `Allow` or as a CORS preflight: spec-silences.md).
 */
const beyondOperations: DocumentedRoute[] = [
  { method: 'GET', path: /^\/openapi\.(yaml|json)$/, statuses: [200] },
  { method: 'OPTIONS', path: /^/, statuses: [204] },
]

// Percent-escapes of unreserved characters name the same path (RFC 3986 §6.2.2.2): `/%5F%5Fadmin`.
const normalPath = (path: string): string =>
  path.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16))
    return /[A-Za-z0-9._~-]/.test(char) ? char : escape
  })

// A session path prefix (/sessions/<name>/…) selects a session; the route is the path after it.
const routedPath = (url: string): string =>
  new URL(url, 'http://localhost').pathname.replace(/^\/sessions\/[^/]+(?=\/|$)/, '') || '/'

/**
 * The 2xx and 3xx statuses documented for a request (under a session prefix too): those its operation lists in the contract (a
 * `HEAD`: its `GET`'s), else those admin-openapi.yaml lists for its /__admin route, and those the mock
 * documents beyond both (see {@link assertContract}).
 */
export const documentedStatuses = (method: string, url: string, against: Spec = spec): number[] => {
  const path = normalPath(routedPath(url))
  const operation = routeOf(against, method === 'HEAD' ? 'GET' : method, path)
  if (operation) return operation.statuses.filter((status) => status < 400)
  const admin = /^\/__admin(\/|$)/.test(path) ? adminDocumentedStatuses(method, path) : []
  return beyondOperations
    .filter(
      (route) => (route.method === method || (method === 'HEAD' && route.method === 'GET')) && route.path.test(path),
    )
    .flatMap((route) => route.statuses)
    .concat(admin)
}

/**
 * Throws unless the answer matches the contract, and what the mock documents beyond it.
 *
 * Its status must be documented:
 * - 2xx and 3xx: for an operation of the contract (`openapi.yaml`, or the spec given), a response the
 *   operation lists (for a `HEAD`, one its `GET` lists); elsewhere, one the mock documents beyond the
 *   contract: on /__admin, one its route lists in admin-openapi.yaml (the one list of admin routes;
 *   docs/reference/admin-api.md's table is checked against it), 200 for `GET /openapi.yaml`
 *   and `/openapi.json`, 204 for `OPTIONS` ({@link documentedStatuses}). Anything else fails, whatever
 *   its body: an undocumented 2xx or 3xx is a change no client was told of.
 * - 4xx and 5xx: any, with the `Error` body. The mock documents errors of its own beyond the
 *   contract's (docs/reference/spec-silences.md, errors.md): 400 on every operation, 403 of the admin
 *   guard, 404 and 405 off the routes, 410 from a sunset, 413, 415, 429 with a rate limit, 503 with
 *   Redis away, 507, the Node host's 408, 417 and 431, 502 and 504 of --proxy, and any 4xx or 5xx a
 *   fault rule or an override injects. What is checked of them is their `Error` body.
 *
 * On /__admin, the answer must also be one the admin API's OpenAPI document (admin-openapi.yaml)
 * describes: a status its route lists (4xx and 5xx: its `default`), a JSON body of its schema.
 *
 * Its body: the schema the operation documents for that status, or else (any status ≥ 400) the
 * `Error` schema with `status` equal to the HTTP status; JSON bodies say application/json. A 403 on
 * /__admin (the admin guard's refusal) must say code `forbidden`. A 410 of an operation with
 * `x-sunset` (getPet once removed) must be code `gone` with `Sunset` and `Link` headers.
 */
export const assertContract = async (
  method: string,
  url: string,
  res: Response,
  against: Spec = spec,
): Promise<void> => {
  const path = routedPath(url)
  const where = `${method} ${url} → ${res.status}`
  if (res.status < 400) {
    const documented = documentedStatuses(method, url, against)
    if (!documented.includes(res.status)) {
      const listed = documented.length > 0 ? documented.join(', ') : 'none below 400'
      throw new Error(`${where}: a status not documented for ${method} ${path} (documented: ${listed})`)
    }
  }
  if (/^\/__admin(\/|$)/.test(normalPath(path))) await assertAdminDocument(method, normalPath(path), res)
  const text = await res.clone().text()
  if (method === 'HEAD' || res.status === 204 || (text === '' && res.status < 400)) return
  const operation = routeOf(against, method, path)
  const isJson = res.headers.get('content-type') === 'application/json'
  const documented = operation?.responseValidator(res.status)
  if (!documented && res.status < 400) return
  if (!isJson) throw new Error(`${where}: content-type ${res.headers.get('content-type')}, not application/json`)
  const body = JSON.parse(text) as { status?: unknown }
  const validate = documented ?? errorValidator
  if (!validate(body)) throw new Error(`${where}: body ${text} breaks the contract: ${JSON.stringify(validate.errors)}`)
  if (res.status >= 400 && body.status !== res.status) throw new Error(`${where}: Error.status ${body.status}`)
  if (res.status === 403 && /^\/__admin(\/|$)/.test(path) && (body as { code?: unknown }).code !== 'forbidden') {
    throw new Error(`${where}: a refusal on /__admin must say code forbidden, not ${text}`)
  }
  if (res.status === 410 && !documented && operation?.sunset) assertGone(where, body as { code?: unknown }, res)
}

// In the `redis-lb` project: three replicas of the app, each on its own store of one shared prefix and
// served by the Node host's transport, behind nginx (load-balanced.ts). The app handed back is the
// first replica, whose `request` goes through nginx like every other request.
const behindLoadBalancer = (options: AppOptions, through: NonNullable<typeof balanced>) => {
  const replicas = testReplicaStores().map((store) =>
    prepareMock({ spec, yaml: yamlCodec, transport: nodeTransport, ...options }, store).build(),
  )
  const id = through.addReplicaSet(replicas)
  const [app, ...others] = replicas as [Hono<AppEnv>, ...Hono<AppEnv>[]]
  app.request = (input: Request | string | URL, init?: RequestInit) => through.requestThrough(id, input, init)
  // A route a test adds (to check what an unexpected exception gives) is added to every replica.
  const get = app.get
  app.get = ((...args: Parameters<typeof get>) => {
    for (const other of others) other.get(...args)
    return get(...args)
  }) as typeof get
  return app
}

/** Whether contractApp's apps keep their sessions in Redis (the `redis` and `redis-lb` projects). */
export const onRedis = (): boolean => balanced !== undefined || testStore !== undefined

/**
 * An app whose every answer is checked against the contract before a test
 * sees it; on the Redis store in the `redis` project, and behind nginx over
 * three replicas on one Redis in the `redis-lb` one (vitest.redis.config.ts),
 * so that every suite built on it holds every store and host to the same behaviour.
 */
export const contractApp = (options: AppOptions = {}) => {
  const app = balanced
    ? behindLoadBalancer(options, balanced)
    : testStore === undefined
      ? createApp({ spec, ...options })
      : prepareMock({ spec, yaml: yamlCodec, ...options }, testStore).build()
  const request = async (url: string, init: RequestInit = {}): Promise<Response> => {
    // In the `prefix` projects every request goes through /sessions/<name>/… instead of X-Mock-Session.
    const sent = testSessionPrefix ? throughPrefix(url, init) : { url, init }
    let res = await app.request(sent.url, sent.init)
    if (sent.prefix !== undefined) res = await withoutPrefix(res, sent.prefix, `${init.method ?? 'GET'} ${sent.url}`)
    await assertContract(init.method ?? 'GET', url, res, options.spec ?? spec)
    return res
  }
  return { app, request }
}

/**
 * Whether a test's request can carry this character in a header value: in process any; over HTTP
 * (the `redis-lb` project) not DEL, which Node's HTTP clients (node:http, fetch) refuse to send.
 */
export const sendableInHeader = (code: number): boolean => balanced === undefined || code !== 0x7f

/**
 * Whether a test's request can carry this text in its URL: in process any; over HTTP (the `redis-lb`
 * project) no NUL, which nginx refuses (`%00`) with a 400 page of its own before any replica sees it.
 */
export const sendableInUrl = (text: string): boolean => balanced === undefined || !text.includes('\0')

/** Headers with a valid bearer token, plus any given. */
export const auth = (extra: Record<string, string> = {}, token = 'test-token'): Record<string, string> => ({
  ...bearer(token),
  ...extra,
})

/** A JSON POST with a valid token. */
export const postJson = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: auth({ 'Content-Type': 'application/json', ...headers }),
  body: typeof body === 'string' ? body : JSON.stringify(body),
})
