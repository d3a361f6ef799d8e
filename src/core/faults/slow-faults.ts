import { builtAnswer, markBuilt } from '../http/respond.js'
import type { Answer, RequestContext } from '../http/stage.js'
import type { Transport } from '../http/transport.js'
import type { Release } from '../tenants/local-shares.js'

/**
 * The `hang` fault: the request is held open, no byte of an answer sent,
 * until the client gives up (closes the connection: its timeout), or at the
 * latest until the hold is over, when the server drops the connection as
 * `connection_reset` does. The hold is the rule's `delayMs` when it has one
 * (a gateway that gives up after that long), else {@link maxHangMs}.
 */
export const maxHangMs = 300_000

/**
 * Most requests an app holds at once (its pool of held requests, shared out
 * by tenant: tenants/local-shares.ts): each holds a socket and a timer.
 * Beyond its share, a tenant's request its rule would hold is refused (429);
 * a hang of a session of no tenant is dropped at once (as at the end of a
 * hold), so that no client can pin the server's memory.
 */
export const maxHangingRequests = 1000

/**
 * Holds the request until the client gives up or `holdMs` passes, then drops the connection;
 * `release` gives back its place among the held requests when the hold ends.
 */
export const hang = (
  c: RequestContext,
  transport: Transport,
  holdMs: number = maxHangMs,
  release: Release = () => {},
): Answer => {
  const signal = c.req.raw.signal
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      release()
      resolve()
    }
    const timer = setTimeout(done, Math.min(holdMs, maxHangMs))
    if (signal.aborted) done()
    else signal.addEventListener('abort', done)
  }).then(() => transport.resetConnection(c))
}

/** Bytes a `drip` sends at a time, and the pause between two sends. */
export const dripChunkBytes = 64
export const dripIntervalMs = 100
/**
 * Most sends of one drip: a longer body goes in larger pieces, so that no
 * drip lasts more than (maxDripPieces − 1) × dripIntervalMs = 29.9 s.
 */
export const maxDripPieces = 300

const encoder = new TextEncoder()

/**
 * The `drip` fault: the answer's status and headers at once, then its body
 * {@link dripChunkBytes} bytes every {@link dripIntervalMs} ms (larger pieces
 * beyond {@link maxDripPieces}), with its Content-Length, as over a very slow
 * network. The journal keeps the whole answer when its headers leave.
 * `release` gives back its place among the held requests once the body is
 * sent or the client goes.
 */
export const drip = async (c: RequestContext, res: Response, release: Release = () => {}): Promise<Response> => {
  if (c.req.method === 'HEAD' || res.body === null) return (release(), res)
  const built = builtAnswer(res)
  let text: string
  try {
    text = built?.text ?? (await res.text())
  } catch (error) {
    release()
    throw error
  }
  const bytes = encoder.encode(text)
  // Held until the body is sent, the stream cancelled, or the request aborted (the client went).
  const signal = c.req.raw.signal
  const done = (): void => {
    signal.removeEventListener('abort', done)
    release()
  }
  if (bytes.length === 0 || signal.aborted) done()
  else signal.addEventListener('abort', done)
  const size = Math.max(dripChunkBytes, Math.ceil(bytes.length / maxDripPieces))
  let sent = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      return new Promise<void>((resolve) => {
        const send = () => {
          controller.enqueue(bytes.subarray(sent, sent + size))
          sent += size
          if (sent >= bytes.length) {
            controller.close()
            done()
          }
          resolve()
        }
        if (sent === 0) send()
        else timer = setTimeout(send, dripIntervalMs)
      })
    },
    cancel() {
      clearTimeout(timer)
      done()
    },
  })
  const headers = new Headers(res.headers)
  headers.set('content-length', String(bytes.length))
  const dripped = new Response(bytes.length === 0 ? null : body, { status: res.status, headers })
  if (!built) return dripped
  return markBuilt(dripped, { ...built, headers: { ...built.headers, 'content-length': String(bytes.length) } })
}
