import type { Context } from 'hono'
import { ConnectionResetError } from './errors.js'
import { type BodyBytes, readStream } from './read-body.js'

/** What the host carrying the requests provides beyond web `Request` and `Response`. */
export interface Transport {
  /** The request body's bytes, whole; `too_large` as soon as they exceed `maxBytes`; null without a body. */
  readBody(c: Context, maxBytes: number): Promise<BodyBytes | null>
  /** Drops the connection without an answer (the `connection_reset` fault). */
  resetConnection(c: Context): Response | Promise<Response>
  /** The request headers for the journal, a fresh flat list: `[name, value, name, value, …]`. */
  requestHeaders(c: Context): string[]
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
