import type { IncomingMessage } from 'node:http'
import type { Context } from 'hono'
import { type Transport, webTransport } from '../core/transport.js'

const incomingOf = (c: Context): IncomingMessage | undefined =>
  (c.env as { incoming?: IncomingMessage } | undefined)?.incoming

/**
 * Requests served by @hono/node-server: the body is read from Node's stream
 * (building a web Request for it costs a third of a POST's time, and hono's
 * bodyLimit copy of it kept ~2 KB per request alive), and a reset destroys
 * the socket. In-process requests (`app.request()`) fall back to the web ones.
 */
export const nodeTransport: Transport = {
  body: (c) => incomingOf(c) ?? webTransport.body(c),
  resetConnection: (c) => {
    const socket = incomingOf(c)?.socket
    if (!socket) return webTransport.resetConnection(c)
    socket.destroy()
    // Never sent: the socket is gone.
    return c.body(null, 500)
  },
  // Node's raw list as it is: building the web Headers' view costs several times more.
  requestHeaders: (c) => incomingOf(c)?.rawHeaders.slice() ?? webTransport.requestHeaders(c),
}
