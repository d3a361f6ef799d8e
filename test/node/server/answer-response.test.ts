import { createServer, request, type Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { addAnswerHeader, AnswerResponse } from '../../../src/node/server/answer-response.js'

let server: Server | undefined
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())))

/** Serves one request with `answer` on an AnswerResponse and returns the raw head lines of what it wrote. */
const headOf = (answer: (res: ServerResponse) => void): Promise<{ lines: string[]; body: string }> =>
  new Promise((resolve, reject) => {
    const listening = createServer({ ServerResponse: AnswerResponse as typeof ServerResponse }, (_req, res) =>
      answer(res),
    )
    server = listening
    listening.listen(0, '127.0.0.1', () => {
      const { port } = listening.address() as AddressInfo
      const req = request({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
        let body = ''
        res.setEncoding('utf8').on('data', (s) => (body += s))
        res.on('end', () => {
          const lines: string[] = []
          for (let i = 0; i < res.rawHeaders.length; i += 2)
            lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`)
          resolve({ lines, body })
        })
      })
      req.on('error', reject)
      req.end()
    })
  })

describe('AnswerResponse: headers added for the host to write', () => {
  it('puts them first in the head, before the answer record, which it never writes to', async () => {
    const record = Object.freeze({ 'content-type': 'application/json', 'x-content-type-options': 'nosniff' })
    const { lines, body } = await headOf((res) => {
      expect(addAnswerHeader(res, 'X-Request-Id', 'req-1')).toBe(true)
      res.writeHead(200, record).end('{}')
    })
    expect(lines.slice(0, 3)).toEqual([
      'X-Request-Id: req-1',
      'content-type: application/json',
      'x-content-type-options: nosniff',
    ])
    expect(body).toBe('{}')
    expect(record).toEqual({ 'content-type': 'application/json', 'x-content-type-options': 'nosniff' })
  })

  it("lets the answer's own header of the same name (any case) win, once, as setHeader did", async () => {
    const { lines } = await headOf((res) => {
      addAnswerHeader(res, 'X-Request-Id', 'ours')
      res.writeHead(200, { 'x-request-id': 'theirs', 'content-type': 'text/plain' }).end('x')
    })
    expect(lines.filter((l) => l.toLowerCase().startsWith('x-request-id'))).toEqual(['x-request-id: theirs'])
  })

  it('replaces an earlier value of the same name', async () => {
    const { lines } = await headOf((res) => {
      addAnswerHeader(res, 'X-Request-Id', 'first')
      addAnswerHeader(res, 'x-request-id', 'second')
      res.writeHead(204).end()
    })
    expect(lines.filter((l) => l.toLowerCase().startsWith('x-request-id'))).toEqual(['x-request-id: second'])
  })

  it('writes them in a head written implicitly (end without writeHead), with a status message, or a raw list', async () => {
    const implicit = await headOf((res) => {
      addAnswerHeader(res, 'X-Request-Id', 'implicit')
      res.setHeader('Content-Type', 'text/plain')
      res.end('ok')
    })
    expect(implicit.lines).toContain('X-Request-Id: implicit')
    expect(implicit.lines).toContain('Content-Type: text/plain')
    const message = await headOf((res) => {
      addAnswerHeader(res, 'X-Request-Id', 'message')
      res.writeHead(200, 'Fine', { 'Content-Type': 'text/plain' }).end('ok')
    })
    expect(message.lines.slice(0, 2)).toEqual(['X-Request-Id: message', 'Content-Type: text/plain'])
    const list = await headOf((res) => {
      addAnswerHeader(res, 'X-Request-Id', 'list')
      res.writeHead(200, ['Content-Type', 'text/plain']).end('ok')
    })
    expect(list.lines).toContain('X-Request-Id: list')
    expect(list.lines).toContain('Content-Type: text/plain')
  })

  it('refuses once the head is sent, and sets the header on any other ServerResponse', async () => {
    let late: boolean | undefined
    await headOf((res) => {
      res.writeHead(200).end('x')
      late = addAnswerHeader(res, 'X-Request-Id', 'late')
    })
    expect(late).toBe(false)
    const plain = await new Promise<string | undefined>((resolve, reject) => {
      server = createServer((_req, res) => {
        addAnswerHeader(res, 'X-Request-Id', 'plain')
        res.end()
      })
      server.listen(0, '127.0.0.1', () => {
        const { port } = server!.address() as AddressInfo
        request({ host: '127.0.0.1', port, agent: false }, (res) => {
          res.resume()
          resolve(res.headers['x-request-id'] as string | undefined)
        })
          .on('error', reject)
          .end()
      })
    })
    expect(plain).toBe('plain')
  })
})
