import { Agent, type IncomingMessage, request as httpRequest } from 'node:http'
import { Readable } from 'node:stream'
import type { Hono } from 'hono'
import { afterAll } from 'vitest'
import { listen, type RunningServer } from '../../src/node/server/server.js'
import { optionLimits } from '../../src/core/app-options.js'
import { type LoadBalancer, startLoadBalancer } from './nginx.js'

/**
 * The `redis-lb` project's path for every request of the contract suites: over HTTP through Debian's
 * nginx (the shared proxy configuration, round robin) to three Node listeners in this worker, each the
 * Node host's own `listen` (src/node/server/server.ts), each serving one replica of the app a suite built.
 * A worker has one nginx and three listeners for all the apps its file builds: the helper names the
 * app in a header of its own, which each listener removes before the replica sees the request.
 */

/**
 * The header naming the app (the set of three replicas) a request is for, and the names of the headers
 * its caller gave: `<id> <name>,<name>…`. Never seen by an app.
 */
const setHeader = 'x-test-replica-set'
export const replicaCount = 3

const sets = new Map<string, readonly Hono<any>[]>()
let latest: string | undefined
const setOf = new WeakMap<IncomingMessage, string>()

/**
 * Before @hono/node-server reads the request (it reads rawHeaders when first asked): the replica is
 * to see the headers the caller gave and no others, as `app.request` in process does. The ones the
 * hop adds go: Host and Content-Length when the caller set none (the URL keeps the Host: Node's
 * parsed headers, which @hono/node-server builds it from, are read first), nginx's X-Forwarded-*
 * and Connection. A request without the header (nginx's readiness probe) is left as it is.
 */
const claim = (incoming: IncomingMessage): void => {
  const value = incoming.headers[setHeader]
  if (typeof value !== 'string') return
  const [id, names = ''] = value.split(' ')
  setOf.set(incoming, id!)
  const given = new Set(names.split(',').filter(Boolean))
  const raw = incoming.rawHeaders
  for (let i = raw.length - 2; i >= 0; i -= 2) if (!given.has(raw[i]!.toLowerCase())) raw.splice(i, 2)
}

// Replica `index` of the set the request names; a request naming none (nginx's readiness probe in
// startLoadBalancer) goes to the latest set.
const replicaFetch =
  (index: number) =>
  (request: Request, env: { incoming: IncomingMessage }): Response | Promise<Response> => {
    const replicas = sets.get(setOf.get(env.incoming) ?? latest!)
    if (!replicas) return new Response('no such replica set', { status: 421 })
    return replicas[index]!.fetch(request, env)
  }

interface Front {
  lb: LoadBalancer
  servers: RunningServer[]
  agent: Agent
}
let front: Promise<Front> | undefined

const listenOptions = {
  host: '127.0.0.1',
  port: 0,
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  sendTimeout: 10_000,
}

const startFront = async (): Promise<Front> => {
  const servers: RunningServer[] = []
  for (let i = 0; i < replicaCount; i++) {
    // listen() uses the app's fetch, and its router only to warm it: each replica warms its own.
    const dispatcher = { fetch: replicaFetch(i), router: { match: () => [] } } as unknown as Hono<any>
    const running = await listen(dispatcher, listenOptions)
    running.server.prependListener('request', claim)
    servers.push(running)
  }
  // The suites set --body-limit up to 20 MB (large loads, issue 29): nginx leaves every body to the
  // replica, whose 413 is the contract's, as a deployment raising --body-limit raises nginx's cap with it.
  const lb = await startLoadBalancer(
    servers.map((s) => new URL(s.url).host),
    { maxBodySize: `${optionLimits.bodyLimit.max}` },
  )
  return { lb, servers, agent: new Agent({ keepAlive: true, maxSockets: 8 }) }
}

afterAll(async () => {
  if (!front) return
  const { lb, servers, agent } = await front
  agent.destroy()
  await lb.stop()
  await Promise.all(servers.map((s) => s.close(1000)))
})

let setsMade = 0

/** Registers the three replicas of one app: the answer's id names them in the header above. */
export const addReplicaSet = (replicas: readonly Hono<any>[]): string => {
  const id = String(++setsMade)
  sets.set(id, replicas)
  latest = id
  return id
}

const nullBodyStatuses = new Set([101, 204, 205, 304])
// What nginx and the Node host add to every answer and an answer in process never has.
const hopHeaders = new Set(['connection', 'keep-alive', 'date', 'server', 'transfer-encoding'])

/** The proxied answer as a web Response (what fetch would give, with no decoding of its own). */
const toResponse = (method: string, res: IncomingMessage): Response => {
  const headers = new Headers()
  for (let i = 0; i < res.rawHeaders.length; i += 2) {
    const name = res.rawHeaders[i]!
    if (!hopHeaders.has(name.toLowerCase())) headers.append(name, res.rawHeaders[i + 1]!)
  }
  const nullBody = method === 'HEAD' || nullBodyStatuses.has(res.statusCode!)
  if (nullBody) res.resume()
  const body = nullBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>)
  return new Response(body, { status: res.statusCode!, statusText: res.statusMessage ?? '', headers })
}

/**
 * Sends what `app.request(input, init)` would hand the app in process, over HTTP through nginx to the
 * replicas of set `id`: the same Request (hono's `http://localhost` base for a path), its Host kept, so
 * that the journal's URLs and the admin guard's Host check read as they do in process.
 */
export const requestThrough = async (
  id: string,
  input: Request | string | URL,
  init?: RequestInit,
): Promise<Response> => {
  const { lb, agent } = await (front ??= startFront())
  const given =
    input instanceof Request
      ? init
        ? new Request(input, init)
        : input
      : new Request(
          /^https?:\/\//.test(String(input)) ? String(input) : `http://localhost${String(input).replace(/^\/?/, '/')}`,
          init,
        )
  const url = new URL(given.url)
  const body = given.body ? Buffer.from(await given.arrayBuffer()) : undefined
  const headers: Record<string, string> = { host: url.host }
  for (const [name, value] of given.headers) headers[name] = value
  headers[setHeader] = `${id} ${[...given.headers.keys()].join(',')}`
  if (body) headers['content-length'] = String(body.byteLength)
  const target = new URL(lb.url)
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = httpRequest(
      {
        agent,
        host: target.hostname,
        port: target.port,
        method: given.method,
        path: `${url.pathname}${url.search}`,
        headers,
        signal: given.signal,
      },
      resolve,
    )
    req.once('error', (error: NodeJS.ErrnoException) =>
      // A replica's reset reaches the client as nginx closing the connection unanswered (the shared
      // proxy configuration): named as app.request names a reset in process.
      reject(error.code === 'ECONNRESET' ? new Error(`connection_reset: ${error.message}`, { cause: error }) : error),
    )
    req.end(body)
  })
  return toResponse(given.method, res)
}

/** The upstream (host:port) of each request nginx has proxied in this worker, in order; none before the first. */
export const proxiedUpstreams = async (): Promise<string[]> => (front ? (await front).lb.upstreams() : [])
