import type { Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { serve } from '@hono/node-server'
import type { Hono } from 'hono'
import { ApiError } from '../core/http/errors.js'

/** How the HTTP server listens and shuts down. */
export interface ListenOptions {
  host: string
  port: number
  headersTimeout: number
  requestTimeout: number
}

/** A listening server. */
export interface RunningServer {
  server: Server
  url: string
  /** Stops accepting, lets in-flight requests finish (at most `graceMs`), then closes. */
  close(graceMs?: number): Promise<void>
}

/** Serves the app over HTTP/1.1 with deliberate timeouts. */
export const listen = (app: Hono<any>, options: ListenOptions): Promise<RunningServer> =>
  new Promise((resolve, reject) => {
    const server = serve({
      fetch: app.fetch,
      hostname: options.host,
      port: options.port,
      // Slow clients must not hold sockets forever: headers and whole request are timed. Node
      // enforces both only when it sweeps connections (every 30 s by default): sweep often enough.
      serverOptions: {
        headersTimeout: options.headersTimeout,
        requestTimeout: options.requestTimeout,
        connectionsCheckingInterval: Math.max(50, Math.min(1000, options.headersTimeout / 2)),
      },
    }) as Server
    server.on('clientError', answerClientError)
    server.once('error', reject)
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

const closeGracefully = (server: Server, graceMs: number): Promise<void> =>
  new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), graceMs)
    // Keep-alive sockets hold close() open; each is closed as soon as its request is answered.
    const sweep = setInterval(() => server.closeIdleConnections(), 50)
    server.close(() => {
      clearTimeout(force)
      clearInterval(sweep)
      resolve()
    })
    server.closeIdleConnections()
  })

const statusForClientError = (code: string | undefined): number =>
  code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : code === 'HPE_HEADER_OVERFLOW' ? 431 : 400

/**
 * Requests Node's parser refuses (NUL or other bad characters, oversized
 * headers) or that time out never reach the app: answer them too with the
 * JSON `Error` body, then close.
 */
const answerClientError = (error: Error & { code?: string }, socket: Socket): void => {
  if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy()
  const status = statusForClientError(error.code)
  const message =
    status === 408
      ? 'The request was not received in time; the connection is closed.'
      : status === 431
        ? 'The request headers are too large.'
        : 'The request is not valid HTTP (bad characters in the request line or headers).'
  const body = JSON.stringify(new ApiError(status, message).body)
  socket.end(
    `HTTP/1.1 ${status} ${status === 408 ? 'Request Timeout' : status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}
