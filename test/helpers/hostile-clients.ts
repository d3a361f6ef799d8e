import { readFileSync } from 'node:fs'
import { connect, type Socket } from 'node:net'

/** A client that sent its request and reads nothing: its socket, and when the server closed it. */
export interface StalledClient {
  socket: Socket
  /** Resolves when the connection is closed (by the server, or by `destroy`). */
  closed: Promise<void>
  destroy(): void
}

/**
 * Opens a connection to `url`'s port, sends `GET path` (or `method`) with
 * `headers`, then never reads: the answer fills the kernel's buffers, then
 * the server's.
 */
export const stalledClient = (
  url: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<StalledClient> =>
  new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1')
    const closed = new Promise<void>((done) => socket.once('close', () => done()))
    socket.once('error', () => {})
    socket.once('connect', () => {
      socket.pause()
      const lines = Object.entries({ Host: 'localhost', ...headers }).map(([name, value]) => `${name}: ${value}\r\n`)
      socket.write(`${method} ${path} HTTP/1.1\r\n${lines.join('')}\r\n`, (error) =>
        error ? reject(error) : resolve({ socket, closed, destroy: () => socket.destroy() }),
      )
    })
  })

/** Sends `count` HEAD requests, one after the other, each answered and its connection closed. */
export const heads = async (url: string, path: string, count: number, headers: Record<string, string> = {}) => {
  const statuses = new Map<number, number>()
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${url}${path}`, { method: 'HEAD', headers: { ...headers, Connection: 'close' } })
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
  }
  return statuses
}

/** Resolves `promise`, or rejects after `ms` (a bound on a wait, not an assertion on time). */
export const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error: unknown) => (clearTimeout(timer), reject(error)),
    )
  })

/** The state of the server's end of a client's loopback connection, from /proc/net/tcp (Linux; hex code). */
const serverEnd = (serverPort: number, clientPort: number): string | undefined => {
  const port = (n: number) => `:${n.toString(16).toUpperCase().padStart(4, '0')}`
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const [, local, remote, state] = line.trim().split(/\s+/)
    if (local?.endsWith(port(serverPort)) && remote?.endsWith(port(clientPort))) return state
  }
  return undefined
}

/**
 * Resolves once the server has let go of a stalled client's connection (its end is no longer
 * ESTABLISHED: closed, or closing with what it could not send), which the client, reading nothing,
 * cannot see itself. Polled, bounded against a hang: the order of events, not a time.
 */
export const letGoByServer = async (client: StalledClient, url: string, ms = 50_000): Promise<void> => {
  const serverPort = Number(new URL(url).port)
  for (let waited = 0; serverEnd(serverPort, client.socket.localPort!) === '01'; waited += 100) {
    if (waited >= ms) throw new Error(`the server still holds the stalled connection after ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
