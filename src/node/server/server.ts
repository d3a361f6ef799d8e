import { randomUUID } from 'node:crypto'
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { getRequestListener } from '@hono/node-server'
import type { Hono } from 'hono'
import {
  answerClientError,
  answerConnect,
  answerExpectation,
  answerRepeatedHost,
  requestErrorResponse,
} from './protocol-errors.js'
import { watchSendTimeout } from './send-timeout.js'
import { defaultMaxConnections, limitConnections } from './connection-limit.js'
import { AnswerResponse } from './answer-response.js'
import { makeRequestIdsWith } from '../../core/log/request-id.js'

/** How the HTTP server listens and shuts down. */
export interface ListenOptions {
  host: string
  port: number
  headersTimeout: number
  requestTimeout: number
  /** Milliseconds an answer may wait for the client to read any of it before the connection is closed. */
  sendTimeout: number
  /** Milliseconds an idle keep-alive connection is kept; default 5000. */
  keepAliveTimeout?: number
  /** Connections served at once; a few more for health only (connection-limit.ts). Default 512, fewer under a low `ulimit -n`. */
  maxConnections?: number
  /** True once the server drains (server/drain.ts): every answer then closes its connection. */
  draining?: () => boolean
}

/** A listening server. */
export interface RunningServer {
  server: Server
  url: string
  /**
   * Stops accepting, lets in-flight requests finish (at most `graceMs`, default 5000; Infinity: no
   * limit, whoever calls stops the process in time), then closes.
   */
  close(graceMs?: number): Promise<void>
}

/** Serves the app over HTTP/1.1 with deliberate timeouts. */
export const listen = (app: Hono<any>, options: ListenOptions): Promise<RunningServer> =>
  new Promise((resolve, reject) => {
    // Slow clients must not hold sockets forever: headers and whole request are timed. Node
    // enforces both only when it sweeps connections (every 30 s by default): sweep often enough.
    // No Host is no default host: a request without one gets its 400 from the error handler.
    const toApp = getRequestListener(app.fetch, { errorHandler: requestErrorResponse })
    makeRequestIdsWith(randomUUID)
    // Set once the server exists: the connection count is the server's.
    let refusedByLimit: ReturnType<typeof limitConnections> = () => false
    const server = createServer(
      {
        headersTimeout: options.headersTimeout,
        requestTimeout: options.requestTimeout,
        connectionsCheckingInterval: Math.max(50, Math.min(1000, options.headersTimeout / 2)),
        // Node's own 400 for a missing Host has no body: the adapter's (see protocol-errors.ts) has.
        requireHostHeader: false,
        ServerResponse: options.draining ? closingWhen(options.draining) : AnswerResponse,
      },
      (request, response) => {
        if (refusedByLimit(request, response) || answerRepeatedHost(request, response)) return
        return toApp(request, response)
      },
    )
    server.keepAliveTimeout = options.keepAliveTimeout ?? 5000
    refusedByLimit = limitConnections(server, options.maxConnections ?? defaultMaxConnections())
    server.on('clientError', answerClientError)
    server.on('checkExpectation', answerExpectation)
    server.on('connect', answerConnect)
    const stopWatching = watchSendTimeout(server, options.sendTimeout)
    server.once('close', stopWatching)
    server.once('error', reject)
    server.listen(options.port, options.host)
    server.once('listening', () => {
      // hono builds its router when it routes the first request (about 2 ms for this app's routes;
      // none when prepared, see prepared-router.ts): built now, while no request waits yet, a request
      // arriving meanwhile waits for the rest of it only.
      setImmediate(() => app.router.match('GET', '/'))
      const { port } = server.address() as AddressInfo
      const host = options.host.includes(':') ? `[${options.host}]` : options.host
      resolve({ server, url: `http://${host}:${port}`, close: (graceMs = 5000) => closeGracefully(server, graceMs) })
    })
  })

/**
 * Answers that say `Connection: close` (and close their connection once sent) while `draining`: a
 * client's pool then opens its next connection elsewhere (a Service, a balancer that has dropped
 * this replica) instead of sending on to a server about to close, and no kept-alive connection is
 * left idle for the server to close under a request being sent. Checked as the head is written, so
 * that an answer in flight when the drain began closes its connection too.
 */
const closingWhen = (draining: () => boolean): typeof ServerResponse =>
  class DrainingResponse extends AnswerResponse {
    override writeHead(...args: unknown[]): this {
      if (draining()) this.shouldKeepAlive = false
      return super.writeHead(...args)
    }
  } as typeof ServerResponse

const closeGracefully = (server: Server, graceMs: number): Promise<void> =>
  new Promise((resolve) => {
    const force = Number.isFinite(graceMs) ? setTimeout(() => server.closeAllConnections(), graceMs) : undefined
    // Keep-alive sockets hold close() open; each is closed as soon as its request is answered.
    const sweep = setInterval(() => server.closeIdleConnections(), 50)
    server.close(() => {
      clearTimeout(force)
      clearInterval(sweep)
      resolve()
    })
    server.closeIdleConnections()
  })
