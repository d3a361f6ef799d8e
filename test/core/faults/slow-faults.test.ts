import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createApp } from '../../../src/index.js'
import { dripChunkBytes, maxHangMs } from '../../../src/core/faults/slow-faults.js'
import { prepareMock } from '../../../src/core/app.js'
import { listen, type RunningServer } from '../../../src/node/server/server.js'
import { nodeTransport } from '../../../src/node/server/node-transport.js'
import type { JournalEntry } from '../../../src/core/journal/journal-entry.js'
import { bearer } from '../../helpers/auth.js'

const json = (body: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
})
const auth = bearer('test-token')

/** A GET over node:http: the status and body, or the error that ended it, and when each byte came. */
const get = (
  url: string,
  timeoutMs: number,
): Promise<{ status?: number; body: string; error?: string; ms: number; chunks: number[] }> =>
  new Promise((resolve) => {
    const start = performance.now()
    const chunks: number[] = []
    let body = ''
    let status: number | undefined
    const req = httpRequest(url, { headers: auth, timeout: timeoutMs }, (res) => {
      status = res.statusCode
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        chunks.push(Math.round(performance.now() - start))
        body += chunk
      })
      res.on('end', () => resolve({ status, body, ms: performance.now() - start, chunks }))
      res.on('error', (error) => resolve({ status, body, error: error.message, ms: performance.now() - start, chunks }))
    })
    // The client's own timeout: it gives up.
    req.on('timeout', () => req.destroy(new Error('client timeout')))
    req.on('error', (error) => resolve({ status, body, error: error.message, ms: performance.now() - start, chunks }))
    req.end()
  })

describe('hang and drip over a real socket (Node host)', () => {
  let server: RunningServer
  let app: ReturnType<typeof createApp>
  const mock = prepareMock({ transport: nodeTransport })
  const hangingRequests = () => mock.held.usedTotal
  beforeAll(async () => {
    app = mock.build()
    server = await listen(app, {
      host: '127.0.0.1',
      port: 0,
      // Shorter than the holds below (a held request is not one still being received), long enough for a
      // busy machine to read a request's headers.
      headersTimeout: 1000,
      requestTimeout: 1000,
      sendTimeout: 5000,
    })
  })
  afterAll(() => server.close(500))
  const admin = (path: string, init?: RequestInit) => app.request(path, init)
  const lastEntry = async (): Promise<JournalEntry> =>
    ((await (await admin('/__admin/requests?limit=1')).json()) as { requests: JournalEntry[] }).requests[0]!

  it('hang: no byte until the client gives up; journaled as a reset lasting as long as the client waited', async () => {
    await admin('/__admin/faults', json({ operation: 'listPets', fault: 'hang', times: 1 }))
    const res = await get(`${server.url}/v1/pets`, 1500)
    expect(res.status).toBeUndefined()
    expect(res.error).toBe('client timeout')
    // The server hears the client go and records the request.
    await vi.waitFor(async () =>
      expect((await lastEntry()).shapedBy).toEqual([{ by: 'fault', ruleId: 1, fault: 'hang' }]),
    )
    const entry = await lastEntry()
    expect(entry.status).toBe(0)
    expect(entry.response).toBeUndefined()
    // A held request is journaled only once the client went (the wait above), with a duration.
    expect(Number.isFinite(entry.durationMs)).toBe(true)
    expect(hangingRequests()).toBe(0)
  })

  it('hang: a client that never gives up is cut off by the server after the hold (delayMs), the connection reset', async () => {
    await admin('/__admin/faults', json({ operation: 'listPets', fault: 'hang', delayMs: 1200, times: 1 }))
    const res = await get(`${server.url}/v1/pets`, 10_000)
    expect(res.status).toBeUndefined()
    // Reset by the server, well before the client's own 10 s timeout.
    expect(res.error).toMatch(/socket hang up|ECONNRESET/)
    await vi.waitFor(async () => expect((await lastEntry()).status).toBe(0))
    // The next request is answered as usual.
    expect((await get(`${server.url}/v1/pets?limit=1`, 2000)).status).toBe(200)
  })

  it('drip: status and headers at once, then the body in pieces of 64 bytes every 100 ms, with its Content-Length', async () => {
    const normal = await get(`${server.url}/v1/pets?limit=3`, 2000)
    await admin('/__admin/faults', json({ operation: 'listPets', fault: 'drip', times: 1 }))
    const res = await get(`${server.url}/v1/pets?limit=3`, 10_000)
    expect(res.status).toBe(200)
    expect(res.body).toBe(normal.body)
    const pieces = Math.ceil(Buffer.byteLength(normal.body) / dripChunkBytes)
    expect(pieces).toBeGreaterThan(2)
    expect(res.chunks.length).toBeGreaterThanOrEqual(pieces - 1)
    const entry = await lastEntry()
    expect(entry.shapedBy).toEqual([{ by: 'fault', ruleId: 3, fault: 'drip' }])
    expect(entry.response?.body).toEqual(JSON.parse(normal.body))
  })
})

describe('hang and drip in process (app.request, as msw and tests call the app)', () => {
  it('hang: the call rejects as a reset when the client aborts; the journal says so', async () => {
    const app = createApp()
    await app.request('/__admin/faults', json({ fault: 'hang' }))
    const controller = new AbortController()
    const pending = app.request('/v1/pets', { headers: auth, signal: controller.signal })
    setTimeout(() => controller.abort(), 50)
    await expect(pending).rejects.toThrow('connection_reset')
    const { requests } = (await (await app.request('/__admin/requests')).json()) as { requests: JournalEntry[] }
    expect(requests[0]).toMatchObject({ status: 0, shapedBy: [{ by: 'fault', ruleId: 1, fault: 'hang' }] })
  })

  it(`hang: at most ${maxHangMs} ms (the server-side cap) when the client never gives up`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const mock = prepareMock({})
      const hangingRequests = () => mock.held.usedTotal
      const app = mock.build()
      await app.request('/__admin/faults', json({ fault: 'hang' }))
      let settled = false
      const pending = Promise.resolve(app.request('/v1/pets', { headers: auth })).finally(() => (settled = true))
      pending.catch(() => {})
      await vi.advanceTimersByTimeAsync(maxHangMs - 1)
      expect(settled).toBe(false)
      expect(hangingRequests()).toBe(1)
      await vi.advanceTimersByTimeAsync(1)
      await expect(pending).rejects.toThrow('connection_reset')
      expect(hangingRequests()).toBe(0)
    } finally {
      vi.useRealTimers()
    }
  })

  it('drip: the whole body arrives, in pieces, with a Content-Length', async () => {
    const app = createApp()
    await app.request('/__admin/faults', json({ operation: 'getPet', fault: 'drip' }))
    const res = await app.request('/v1/pets/1', { headers: auth })
    expect(res.status).toBe(200)
    const reader = res.body!.getReader()
    let pieces = 0
    let text = ''
    const decoder = new TextDecoder()
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      pieces++
      text += decoder.decode(read.value, { stream: true })
    }
    expect(JSON.parse(text)).toMatchObject({ id: 1 })
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text))
    expect(pieces).toBe(Math.ceil(Buffer.byteLength(text) / dripChunkBytes))
  })

  it('drip on a HEAD, and on an answer without a body, sends it as it is', async () => {
    const app = createApp()
    await app.request('/__admin/faults', json({ fault: 'drip' }))
    const head = await app.request('/v1/pets/1', { method: 'HEAD', headers: auth })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
  })

  it('rules refuse hang and drip with a status or an answer of their own', async () => {
    const app = createApp()
    const refused = await app.request('/__admin/faults', json({ fault: 'hang', status: 504 }))
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { message: string }).message).toBe('status cannot be combined with fault.')
  })
})
