import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../../src/index.js'
import { listen, type RunningServer } from '../../../src/node/server/server.js'
import { bearer } from '../../helpers/auth.js'

let server: RunningServer
let port: number

beforeAll(async () => {
  server = await listen(createApp(), {
    host: '127.0.0.1',
    port: 0,
    headersTimeout: 1000,
    requestTimeout: 5000,
    sendTimeout: 5000,
  })
  port = Number(new URL(server.url).port)
})
afterAll(() => server.close(500))

/**
 * Sends raw bytes (optionally in timed pieces, `onWrite` called after each piece written) and resolves
 * with everything read until close, which ends the sending (bounded: a guard against a hang).
 */
const raw = (pieces: (string | number)[], timeoutMs = 10_000, onWrite = () => {}): Promise<string> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let received = ''
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no close within ${timeoutMs} ms; got ${JSON.stringify(received)}`))
    }, timeoutMs)
    socket.on('data', (chunk) => (received += chunk))
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(received)
    })
    socket.on('error', () => {})
    socket.on('connect', async () => {
      for (const piece of pieces) {
        if (socket.destroyed) break
        if (typeof piece === 'number') await new Promise((r) => setTimeout(r, piece))
        else {
          socket.write(piece)
          onWrite()
        }
      }
    })
  })

const parse = (response: string) => {
  const [head = '', body = ''] = response.split('\r\n\r\n')
  return { statusLine: head.split('\r\n')[0], head, body: body ? JSON.parse(body) : undefined }
}

describe('requests the adapter or Node refuse: every status with its Error body', () => {
  const error = (status: number, code: string, message: string) => ({ status, code, message })
  const badUrl =
    'The Host header and the request target do not make a valid URL: the target must be a path starting with / and the Host a host name with an optional numeric port.'
  it.each([
    [
      'Host with a port that is not a number',
      'GET /v1/pets HTTP/1.1\r\nHost: localhost:abc',
      error(400, 'bad_request', badUrl),
    ],
    [
      'Host an IPv4-mapped IPv6 address',
      'GET /v1/pets HTTP/1.1\r\nHost: [::ffff:127.0.0.1]',
      error(400, 'bad_request', 'The Host header is not a valid host name with an optional port.'),
    ],
    [
      'a backslash in the path',
      'GET /v1/pets\\x HTTP/1.1\r\nHost: localhost',
      error(400, 'bad_request', 'The request path contains a backslash.'),
    ],
    ['OPTIONS *', 'OPTIONS * HTTP/1.1\r\nHost: localhost', error(400, 'bad_request', badUrl)],
    [
      'an absolute target of another scheme',
      'GET ftp://x/ HTTP/1.1\r\nHost: localhost',
      error(400, 'bad_request', badUrl),
    ],
    ['no Host (HTTP/1.1)', 'GET /v1/pets HTTP/1.1', error(400, 'bad_request', 'The Host header is missing.')],
    ['no Host (HTTP/1.0)', 'GET /v1/pets HTTP/1.0', error(400, 'bad_request', 'The Host header is missing.')],
    [
      'Expect other than 100-continue',
      'GET /v1/pets HTTP/1.1\r\nHost: localhost\r\nExpect: 200-ok',
      error(417, 'expectation_failed', 'Expect: 200-ok is not supported; only 100-continue is.'),
    ],
    [
      'CONNECT',
      'CONNECT localhost:80 HTTP/1.1\r\nHost: localhost:80',
      error(405, 'method_not_allowed', 'CONNECT is not supported: this server is not a proxy.'),
    ],
  ])('%s → its status, application/json and the exact Error body', async (_, head, expected) => {
    const response = await raw([`${head}\r\nConnection: close\r\n\r\n`])
    const { statusLine, head: headers, body } = parse(response)
    expect(statusLine).toMatch(new RegExp(`^HTTP/1.1 ${expected.status} `))
    expect(headers.toLowerCase()).toContain('content-type: application/json')
    expect(body).toEqual(expected)
    const length = /content-length: (\d+)/i.exec(headers)?.[1]
    expect(Number(length)).toBe(Buffer.byteLength(response.split('\r\n\r\n')[1]!))
  })

  it('HEAD of a bad target: the same status and headers, no body', async () => {
    const response = await raw(['HEAD /v1/pets\\x HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'])
    expect(response).toMatch(/^HTTP\/1.1 400 Bad Request\r\n/)
    expect(response.toLowerCase()).toContain('content-type: application/json')
    expect(response.endsWith('\r\n\r\n')).toBe(true)
  })
})

describe('requests Node refuses before the app', () => {
  it.each([
    ['NUL in a header', 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\0b\r\n\r\n'],
    ['a control character in a header', 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-A: a\x01b\r\n\r\n'],
    ['a broken request line', 'GET /v1/pets HTTP/9.9 extra\r\n\r\n'],
    ['a space in the path', 'GET /v1/p ets HTTP/1.1\r\nHost: x\r\n\r\n'],
  ])('%s → 400 with the Error body', async (_, request) => {
    const { statusLine, head, body } = parse(await raw([request]))
    expect(statusLine).toBe('HTTP/1.1 400 Bad Request')
    expect(head).toContain('Content-Type: application/json')
    expect(body).toEqual({ code: 'bad_request', message: expect.stringContaining('not valid HTTP'), status: 400 })
  })

  it('oversized headers → 431 with the Error body', async () => {
    const { statusLine, body } = parse(
      await raw([`GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`]),
    )
    expect(statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large')
    expect(body).toMatchObject({ code: 'request_header_fields_too_large', status: 431 })
  })

  it('a client sending headers one byte a second is cut off by the headers timeout while others are served', async () => {
    const slowHeaders = 'GET /v1/pets HTTP/1.1\r\nHost: x\r\n'.split('').flatMap((ch) => [ch, 1000])
    let written = 0
    const slow = raw(slowHeaders, 30_000, () => written++)
    const served: number[] = []
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, 200))
      served.push((await fetch(`${server.url}/v1/pets`, { headers: bearer() })).status)
    }
    const { statusLine, body } = parse(await slow)
    expect(served).toEqual([200, 200, 200, 200, 200])
    expect(statusLine).toBe('HTTP/1.1 408 Request Timeout')
    expect(body).toMatchObject({ code: 'request_timeout', status: 408 })
    // Cut off while still sending its headers (headersTimeout 1 s, which Node checks now and then): the
    // answer came before the last of its 33 bytes, a second apart, was written.
    expect(written).toBeLessThan(slowHeaders.filter((piece) => typeof piece === 'string').length)
  })
})
