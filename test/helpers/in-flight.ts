import { Agent, request } from 'node:http'

/** A final answer: its status and body. */
export interface Answer {
  status: number
  body: string
}

/** A request the server has in hand: see {@link takenRequest}. */
export interface TakenRequest {
  /** Resolves once the server has the request (it answered `100 Continue`); rejects if it never does. */
  taken: Promise<void>
  /** Resolves once the whole request is handed to the connection (a body: after `taken`, once asked for). */
  sent: Promise<void>
  /** Resolves with the status when the answer's head arrives (its body may still be on its way). */
  responded: Promise<number>
  /** The final answer (rejects when the connection ends without one). */
  answer: Promise<Answer>
  /** Resolves when its connection is closed (by either side). */
  closed: Promise<void>
}

/**
 * Sends a request on a connection of its own with `Expect: 100-continue`: Node's server answers
 * `100 Continue` as it hands the request to the app, so `taken` says, without a stopwatch, that the
 * request is in the server's hands (in flight) and no longer on its way. What a test then does (a
 * SIGTERM, say) happens after the server took the request, whatever the load on the machine.
 * `body` is sent once the server asked for it. With `keepAlive`, the connection stays open after the
 * answer, as a client's pool keeps it; else the request says `Connection: close`.
 */
export const takenRequest = (
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer; keepAlive?: boolean } = {},
): TakenRequest => {
  let took: () => void = () => {}
  let refused: (error: Error) => void = () => {}
  let ended: () => void = () => {}
  let wrote: () => void = () => {}
  let headed: (status: number) => void = () => {}
  const taken = new Promise<void>((resolve, reject) => ((took = resolve), (refused = reject)))
  const sent = new Promise<void>((resolve) => (wrote = resolve))
  const responded = new Promise<number>((resolve) => (headed = resolve))
  const closed = new Promise<void>((resolve) => (ended = resolve))
  const answer = new Promise<Answer>((resolve, reject) => {
    const req = request(url, {
      method: init.method ?? 'GET',
      agent: init.keepAlive ? new Agent({ keepAlive: true, maxSockets: 1 }) : false,
      headers: {
        ...init.headers,
        Expect: '100-continue',
        ...(init.body !== undefined && { 'Content-Length': String(Buffer.byteLength(init.body)) }),
      },
    })
    req.once('socket', (socket) => socket.once('close', () => ended()))
    req.once('finish', () => wrote())
    req.once('continue', () => {
      took()
      if (init.body !== undefined) req.end(init.body)
    })
    req.once('response', (res) => {
      took()
      headed(res.statusCode!)
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.once('end', () => resolve({ status: res.statusCode!, body }))
      res.once('error', reject)
    })
    req.once('error', (error) => {
      refused(error)
      reject(error)
    })
    // Without a body, the request is complete at once; the server still answers 100 Continue first.
    if (init.body === undefined) req.end()
    else req.flushHeaders()
  })
  // A test that awaits only one of them must not see the other's rejection as unhandled.
  taken.catch(() => {})
  answer.catch(() => {})
  return { taken, sent, responded, answer, closed }
}

/** A kept-alive connection with no request on it: see {@link idleConnection}. */
export interface IdleConnection {
  /** Resolves when the server closes the connection. */
  closed: Promise<void>
  destroy(): void
}

/**
 * Opens a keep-alive connection, sends one request on it (GET `path`), reads the whole answer and
 * leaves the connection open and idle, as a client's connection pool does between requests.
 */
export const idleConnection = (url: string, path = '/__admin/health'): Promise<IdleConnection> =>
  new Promise((resolve, reject) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const req = request(new URL(path, url), { agent })
    req.once('socket', (socket) => {
      const closed = new Promise<void>((done) => socket.once('close', () => done()))
      req.once('response', (res) => {
        res.resume()
        res.once('end', () => resolve({ closed, destroy: () => agent.destroy() }))
      })
    })
    req.once('error', reject)
    req.end()
  })
