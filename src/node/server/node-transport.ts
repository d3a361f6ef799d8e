import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Context } from 'hono'
import { addAnswerHeader } from './answer-response.js'
import { type BodyBytes, concatChunks, type Transport, webTransport } from '../../core/http/transport.js'

const incomingOf = (c: Context): IncomingMessage | undefined =>
  (c.env as { incoming?: IncomingMessage } | undefined)?.incoming

const outgoingOf = (c: Context): ServerResponse | undefined =>
  (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing

/**
 * Node's request stream read whole through its events: its async iterator
 * costs an end-of-stream watcher and promises per request. Beyond the limit
 * it stops and pauses; @hono/node-server drains or closes what is left once
 * the answer is sent.
 */
const readIncoming = (incoming: IncomingMessage, maxBytes: number): Promise<BodyBytes> =>
  new Promise((resolve, reject) => {
    if (incoming.readableEnded) return resolve(new Uint8Array(0))
    const chunks: Uint8Array[] = []
    let size = 0
    const stop = () => {
      incoming.off('data', onData)
      incoming.off('end', onEnd)
      incoming.off('error', onError)
      incoming.off('close', onClose)
    }
    const onData = (chunk: Uint8Array) => {
      size += chunk.byteLength
      if (size <= maxBytes) return void chunks.push(chunk)
      stop()
      incoming.pause()
      resolve('too_large')
    }
    const onEnd = () => {
      stop()
      resolve(concatChunks(chunks, size))
    }
    const onError = (error: Error) => {
      stop()
      reject(error)
    }
    // Closed before its end: the client went away mid-body.
    const onClose = () => onError(new Error('The request body ended early: the connection was closed.'))
    incoming.on('data', onData)
    incoming.on('end', onEnd)
    incoming.on('error', onError)
    incoming.on('close', onClose)
  })

/**
 * Requests served by @hono/node-server: the body is read from Node's stream
 * (building a web Request for it costs a third of a POST's time, and hono's
 * bodyLimit copy of it kept ~2 KB per request alive), and a reset destroys
 * the socket. In-process requests (`app.request()`) fall back to the web ones.
 */
export const nodeTransport: Transport = {
  readBody: (c, maxBytes) => {
    const incoming = incomingOf(c)
    return incoming ? readIncoming(incoming, maxBytes) : webTransport.readBody(c, maxBytes)
  },
  resetConnection: (c) => {
    const socket = incomingOf(c)?.socket
    if (!socket) return webTransport.resetConnection(c)
    socket.destroy()
    // Never sent: the socket is gone.
    return c.body(null, 500)
  },
  // Node's raw list as it is: building the web Headers' view costs several times more.
  requestHeaders: (c) => incomingOf(c)?.rawHeaders.slice() ?? webTransport.requestHeaders(c),
  // The socket's peer: the proxy in front when there is one (X-Forwarded-For is the caller's to forge).
  clientAddress: (c) => incomingOf(c)?.socket.remoteAddress,
  // Added to the head @hono/node-server writes (answer-response.ts): the answer's web Headers are never built for it.
  answerHeader: (c, name, value) => {
    const outgoing = outgoingOf(c)
    return outgoing !== undefined && addAnswerHeader(outgoing, name, value)
  },
}
