import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { RequestError } from '@hono/node-server'
import { ApiError } from '../../core/http/errors.js'
import { reasonPhrases } from '../../core/http/http-status.js'
import { noScriptHeaders } from '../../core/http/no-script.js'

// The answers of the app carry them (core/http/no-script.ts): so do the host's own.
const noScriptLines = Object.entries(noScriptHeaders)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('')

const errorJson = (status: number, message: string): string => JSON.stringify(new ApiError(status, message).body)

const statusForClientError = (code: string | undefined): number =>
  code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : code === 'HPE_HEADER_OVERFLOW' ? 431 : 400

/**
 * Requests Node's parser refuses (NUL or other bad characters, oversized
 * headers) or that time out never reach the app: answer them too with the
 * JSON `Error` body, then close. For the server's 'clientError' event.
 */
export const answerClientError = (error: Error & { code?: string }, socket: Socket): void => {
  if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy()
  const status = statusForClientError(error.code)
  const message =
    status === 408
      ? 'The request was not received in time; the connection is closed.'
      : status === 431
        ? 'The request headers are too large.'
        : 'The request is not valid HTTP (bad characters in the request line or headers).'
  writeRawError(socket, status, message)
}

/** Writes a whole `Error` answer on a socket the HTTP server no longer handles, then closes it. */
const writeRawError = (socket: Duplex, status: number, message: string): void => {
  const body = errorJson(status, message)
  socket.end(
    `HTTP/1.1 ${status} ${reasonPhrases[status]}\r\n` +
      `Content-Type: application/json\r\n${noScriptLines}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}

/** A CONNECT request (the server's 'connect' event): 405, where Node would close without an answer. */
export const answerConnect = (_request: IncomingMessage, socket: Duplex): void =>
  writeRawError(socket, 405, 'CONNECT is not supported: this server is not a proxy.')

// @hono/node-server's reasons for not building a URL, as sentences for the client.
const requestErrorMessages: Readonly<Record<string, string>> = {
  'Missing host header': 'The Host header is missing.',
  'Invalid host header': 'The Host header is not a valid host name with an optional port.',
  'Backslash in request path': 'The request path contains a backslash.',
  'Invalid absolute URL': 'The absolute request target is not a valid http(s) URL.',
}

/**
 * The answer to a request @hono/node-server cannot turn into a web `Request`
 * (its `errorHandler`): a bad Host header (`localhost:abc`, `[::ffff:1.2.3.4]`),
 * a backslash in the path, a target that is not a path (`OPTIONS *`). Left to
 * itself the adapter answers an empty 400.
 */
export const requestErrorResponse = (error: unknown): Response => {
  const status = error instanceof RequestError ? 400 : 500
  const message =
    status === 500
      ? 'The server failed unexpectedly; retry the request.'
      : (requestErrorMessages[(error as Error).message] ??
        'The Host header and the request target do not make a valid URL: the target must be a path starting with / and the Host a host name with an optional numeric port.')
  return new Response(errorJson(status, message), {
    status,
    headers: { 'Content-Type': 'application/json', ...noScriptHeaders },
  })
}

/**
 * A request with two `Host` headers (the server's request listener, before
 * the app): 400, as RFC 9112 §3.2 requires, where Node would take the first
 * and the admin guard's DNS-rebinding check could be shown another than a
 * proxy routed by. Returns whether it answered.
 */
export const answerRepeatedHost = (request: IncomingMessage, response: ServerResponse): boolean => {
  const raw = request.rawHeaders
  let hosts = 0
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!
    if (name.length === 4 && name.toLowerCase() === 'host') hosts++
  }
  if (hosts < 2) return false
  const body = errorJson(400, 'The Host header is given more than once; send one (RFC 9112 §3.2).')
  response.shouldKeepAlive = false
  response.writeHead(400, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
  })
  response.end(body)
  return true
}

/**
 * An `Expect` other than `100-continue` (the server's 'checkExpectation'
 * event): 417 with the `Error` body, where Node would answer a bare 417.
 */
export const answerExpectation = (request: IncomingMessage, response: ServerResponse): void => {
  const body = errorJson(417, `Expect: ${request.headers.expect} is not supported; only 100-continue is.`)
  response.writeHead(417, {
    'Content-Type': 'application/json',
    ...noScriptHeaders,
    'Content-Length': Buffer.byteLength(body),
  })
  response.end(body)
}
