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
