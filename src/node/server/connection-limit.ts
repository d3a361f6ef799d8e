import { readFileSync } from 'node:fs'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { ApiError } from '../../core/http/errors.js'

/** Connections beyond the limit kept for health: a probe gets through while clients hold every other socket. */
export const healthReserve = 8

/** The most connections served by default: below the 1024 descriptors a shell's `ulimit -n` often allows. */
export const maxConnectionsCap = 512

// Descriptors kept for all but client sockets: files, Redis, the reserve, the worker threads.
const descriptorMargin = 64

/** The soft limit on open files (`ulimit -n`), from /proc on Linux; undefined where it cannot be read. */
export const openFilesLimit = (limits = '/proc/self/limits'): number | undefined => {
  try {
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync(limits, 'utf8'))
    return match && match[1] !== 'unlimited' ? Number(match[1]) : undefined
  } catch {
    return undefined
  }
}

/**
 * `--max-connections`' default: {@link maxConnectionsCap}, or fewer when the
 * process may open fewer files (the soft `ulimit -n` less 64, at least 16): a
 * client holding sockets then meets the limit, with its reserve for health,
 * before the process runs out of descriptors and every accept fails.
 */
export const defaultMaxConnections = (files = openFilesLimit()): number =>
  files === undefined ? maxConnectionsCap : Math.max(16, Math.min(maxConnectionsCap, files - descriptorMargin))

// A reserve connection serves health only, then closes: its request must come soon.
const reserveRequestMs = 2000

const reserved = new WeakSet<Socket>()

const isHealth = (url: string | undefined): boolean =>
  url !== undefined &&
  (url === '/__admin/health' || url.startsWith('/__admin/health/') || url.startsWith('/__admin/health?'))

/**
 * Bounds the sockets one server holds (issue 40 §5): up to `max` connections
 * are served as usual; the next {@link healthReserve} are accepted for health
 * only (`/__admin/health/…`; anything else gets 503 `service_unavailable` and
 * the connection is closed), and Node closes any beyond those at once,
 * without an answer. Clients that hold sockets (slow requests, idle
 * keep-alives) cannot starve a probe or use up the process's descriptors.
 * Returns whether a request is one the reserve refuses, answering it.
 */
export const limitConnections = (
  server: Server,
  max: number,
): ((request: IncomingMessage, response: ServerResponse) => boolean) => {
  let open = 0
  server.maxConnections = max + healthReserve
  server.on('connection', (socket: Socket) => {
    open++
    socket.once('close', () => open--)
    if (open <= max) return
    reserved.add(socket)
    const timer = setTimeout(() => socket.destroy(), reserveRequestMs)
    timer.unref()
    socket.once('close', () => clearTimeout(timer))
  })
  return (request, response) => {
    if (!reserved.has(request.socket)) return false
    response.shouldKeepAlive = false
    if (isHealth(request.url)) return false
    const body = JSON.stringify(
      new ApiError(
        503,
        `The server holds its most connections (${max}, --max-connections); only health is answered beyond them. Retry later.`,
      ).body,
    )
    response.writeHead(503, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      'Retry-After': '1',
      Connection: 'close',
    })
    response.end(body)
    return true
  }
}
