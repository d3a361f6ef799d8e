import type { Context } from 'hono'
import { ConnectionResetError } from './errors.js'

/** What the host carrying the requests provides beyond web `Request` and `Response`. */
export interface Transport {
  /** The request body's bytes, whole; `too_large` as soon as they exceed `maxBytes`; null without a body. */
  readBody(c: Context, maxBytes: number): Promise<BodyBytes | null>
  /** Drops the connection without an answer (the `connection_reset` fault). */
  resetConnection(c: Context): Response | Promise<Response>
  /** The request headers for the journal, a fresh flat list: `[name, value, name, value, …]`. */
  requestHeaders(c: Context): string[]
  /** The client's address as the host saw it (a socket's peer), for the log; absent or undefined: unknown. */
  clientAddress?(c: Context): string | undefined
  /**
   * Adds a header to the answer as the host writes it (Node: `setHeader` on the outgoing message,
   * merged when the head is written), cheaper than a web Response's headers; false when it cannot
   * (no such host, the head already sent): the caller then sets it on the Response.
   */
  answerHeader?(c: Context, name: string, value: string): boolean
}

/**
 * Web-standard hosts (msw, `app.request()`): the body from the `Request`;
 * a reset escapes the app as a ConnectionResetError, for the host to turn
 * into a network error, as `fetch` rejects on a real reset.
 */
export const webTransport: Transport = {
  readBody: async (c, maxBytes) => (c.req.raw.body ? readStream(c.req.raw.body, maxBytes) : null),
  // Rejected, not thrown: `fetch` rejects on a reset, it never throws.
  resetConnection: () => Promise.reject(new ConnectionResetError('connection_reset fault')),
  requestHeaders: (c) => {
    const list: string[] = []
    c.req.raw.headers.forEach((value, name) => list.push(name, value))
    return list
  },
}

/** A whole body's bytes, or `too_large` once they exceed the limit. */
export type BodyBytes = Uint8Array | 'too_large'

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** The chunks as one array. */
export const concatChunks = (chunks: readonly Uint8Array[], size: number): Uint8Array => {
  if (chunks.length === 1) return chunks[0]!
  const whole = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    whole.set(chunk, offset)
    offset += chunk.byteLength
  }
  return whole
}

/** Reads a web ReadableStream whole, stopping as soon as it exceeds `maxBytes`. */
export const readStream = async (stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<BodyBytes> => {
  // Safari's ReadableStream is not async-iterable: read it through a reader.
  const reader = stream.getReader()
  try {
    const chunks: Uint8Array[] = []
    let size = 0
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.byteLength
      if (size > maxBytes) return 'too_large'
      chunks.push(read.value)
    }
    return concatChunks(chunks, size)
  } finally {
    reader.releaseLock()
  }
}
