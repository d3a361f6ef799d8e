import { createServer } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import type { Context } from 'hono'
import { describe, expect, it } from 'vitest'
import { headerRecord } from '../../../src/core/http/header-list.js'
import { nodeTransport } from '../../../src/node/server/node-transport.js'

const withRawHeaders = (rawHeaders: string[]) => ({ env: { incoming: { rawHeaders } } }) as unknown as Context

describe('request headers for the journal', () => {
  it('nodeTransport copies Node’s raw list, which the journal may then redact', () => {
    const raw = ['Host', 'x', 'Authorization', 'Bearer secret']
    const list = nodeTransport.requestHeaders(withRawHeaders(raw))
    expect(list).toEqual(raw)
    expect(list).not.toBe(raw)
  })

  it('headerRecord: lower-case names, repeated ones joined, prototype names as plain headers', () => {
    const record = headerRecord(['Host', 'x', 'X-Dup', 'a', 'x-dup', 'b', 'Constructor', 'c', '__proto__', 'p'])
    expect({ ...record }).toEqual({ host: 'x', 'x-dup': 'a, b', constructor: 'c', ['__proto__']: 'p' })
    expect(Object.keys(record)).toEqual(['host', 'x-dup', 'constructor', '__proto__'])
  })
})

/** A server whose every request's body is read by nodeTransport with `maxBytes`; what the read gave, by request. */
const bodyServer = async (maxBytes: number) => {
  const reads: Promise<{ result: unknown; paused: boolean }>[] = []
  const server = createServer((incoming, outgoing) => {
    const read = nodeTransport.readBody({ env: { incoming } } as unknown as Context, maxBytes).then(
      (result) => ({ result, paused: incoming.isPaused() }),
      (error: Error) => ({ result: error, paused: incoming.isPaused() }),
    )
    reads.push(read)
    void read.then(({ result }) => {
      if (outgoing.destroyed) return
      outgoing.writeHead(result === 'too_large' ? 413 : 200, { Connection: 'close' })
      outgoing.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { port, reads, close: () => new Promise((resolve) => server.close(resolve)) }
}

/** Sends `head` then each part on a raw socket; resolves with what the server answered (empty if nothing). */
const sendRaw = (port: number, parts: string[], { destroyAfter = false } = {}) =>
  new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let answer = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => (answer += chunk))
    socket.on('error', reject)
    socket.on('close', () => resolve(answer))
    socket.on('connect', () => {
      for (const part of parts) socket.write(part)
      if (destroyAfter) setTimeout(() => socket.destroy(), 50)
    })
  })

describe('readIncoming on a real socket (nodeTransport.readBody)', () => {
  it('reads a body within the limit whole, chunked or with Content-Length', async () => {
    const server = await bodyServer(16)
    try {
      await sendRaw(port(server), ['POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 16\r\n\r\n', '0123456789', 'abcdef'])
      await sendRaw(port(server), [
        'POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n',
        '8\r\n01234567\r\n',
        '8\r\n89abcdef\r\n0\r\n\r\n',
      ])
      const results = await Promise.all(server.reads)
      for (const { result } of results) expect(new TextDecoder().decode(result as Uint8Array)).toBe('0123456789abcdef')
    } finally {
      await server.close()
    }
  })

  it('stops at the first byte beyond the limit: too_large, the stream paused, 413 answered', async () => {
    const server = await bodyServer(16)
    try {
      const answer = await sendRaw(port(server), [
        'POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n',
        '10\r\n0123456789abcdef\r\n',
        '1\r\nX\r\n',
      ])
      expect(answer).toMatch(/^HTTP\/1\.1 413 /)
      const [read] = await Promise.all(server.reads)
      expect(read).toEqual({ result: 'too_large', paused: true })
    } finally {
      await server.close()
    }
  })

  it('rejects when the client closes the connection before the body’s end', async () => {
    const server = await bodyServer(1024)
    try {
      await sendRaw(port(server), ['POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n', 'only ten b'], {
        destroyAfter: true,
      })
      const [read] = await Promise.all(server.reads)
      expect(read!.result).toBeInstanceOf(Error)
      expect((read!.result as Error).message).toMatch(/ended early|aborted/)
    } finally {
      await server.close()
    }
  })

  it('an empty body is empty bytes', async () => {
    const server = await bodyServer(16)
    try {
      await sendRaw(port(server), ['POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n'])
      const [read] = await Promise.all(server.reads)
      expect((read!.result as Uint8Array).byteLength).toBe(0)
    } finally {
      await server.close()
    }
  })
})

const port = (server: { port: number }) => server.port
