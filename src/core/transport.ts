import type { Context } from 'hono'
import { ConnectionResetError } from './errors.js'

/** What the host carrying the requests provides beyond web `Request` and `Response`. */
export interface Transport {
  /** The request body's bytes. */
  body(c: Context): AsyncIterable<Uint8Array> | null
  /** Drops the connection without an answer (the `connection_reset` fault). */
  resetConnection(c: Context): Response
  /** The request headers for the journal, a fresh flat list: `[name, value, name, value, …]`. */
  requestHeaders(c: Context): string[]
}

// Safari's ReadableStream is not async-iterable: read it through a reader.
async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader()
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) yield read.value
  } finally {
    reader.releaseLock()
  }
}

/**
 * Web-standard hosts (msw, `app.request()`): the body from the `Request`;
 * a reset escapes the app as a ConnectionResetError, for the host to turn
 * into a network error, as `fetch` rejects on a real reset.
 */
export const webTransport: Transport = {
  body: (c) => (c.req.raw.body ? chunksOf(c.req.raw.body) : null),
  resetConnection: () => {
    throw new ConnectionResetError('connection_reset fault')
  },
  requestHeaders: (c) => {
    const list: string[] = []
    c.req.raw.headers.forEach((value, name) => list.push(name, value))
    return list
  },
}
