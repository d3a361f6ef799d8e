import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import type { Hono } from 'hono'

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
      // Slow clients must not hold sockets forever: headers and whole request are timed.
      serverOptions: { headersTimeout: options.headersTimeout, requestTimeout: options.requestTimeout },
    }) as Server
    server.once('error', reject)
    server.once('listening', () => {
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
