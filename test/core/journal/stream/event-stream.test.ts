import { connect } from 'node:net'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventStreamLimits, journalEventStream } from '../../../../src/core/journal/stream/event-stream.js'
import { Journal } from '../../../../src/core/journal/journal.js'
import { JournalFeed } from '../../../../src/core/journal/stream/journal-feed.js'
import { listen, type RunningServer } from '../../../../src/node/server/server.js'
import { idleConnection, takenRequest } from '../../../helpers/in-flight.js'
import { type SpawnedServer, spawnServer } from '../../../helpers/spawn-server.js'
import { bearer } from '../../../helpers/auth.js'
import { journalRecord } from '../../../helpers/journal-records.js'

const record = (i: number, size = 10) => journalRecord(i, { time: Date.now(), headers: ['x-pad', 'x'.repeat(size)] })

const until = async (condition: () => boolean, ms = 3000): Promise<void> => {
  const end = Date.now() + ms
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 10))
  }
}
const tick = () => new Promise((r) => setImmediate(r))

/** Server-sent events from a response body, as they arrive. */
const sseReader = (body: ReadableStream<Uint8Array>) => {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  return {
    /** The next `count` blocks (events or comments), each as its lines. */
    async next(count: number, ms = 3000): Promise<string[][]> {
      const deadline = Date.now() + ms
      while (buffer.split('\n\n').length - 1 < count) {
        if (Date.now() > deadline) throw new Error(`fewer than ${count} events in ${ms} ms: ${buffer}`)
        const { done, value } = await reader.read()
        if (done) throw new Error(`stream ended: ${buffer}`)
        buffer += decoder.decode(value, { stream: true })
      }
      const blocks = buffer.split('\n\n')
      buffer = blocks.slice(count).join('\n\n')
      return blocks.slice(0, count).map((block) => block.split('\n'))
    },
    /** Resolves when the stream ends (a clean end: no error), whatever comes before it. */
    async end(): Promise<void> {
      for (let next = await reader.read(); !next.done; next = await reader.read()) {}
    },
    cancel: () => reader.cancel(),
  }
}

// The stream over a real socket (@hono/node-server, the host's backpressure), with a journal the test drives.
describe('journalEventStream over a socket', () => {
  const journal = new Journal(10)
  let server: RunningServer
  beforeAll(async () => {
    const app = new Hono().get('/stream', (c) =>
      c.body(journalEventStream(new JournalFeed(journal, (r) => JSON.stringify(r))), 200, {
        'Content-Type': 'text/event-stream',
      }),
    )
    server = await listen(app, {
      host: '127.0.0.1',
      port: 0,
      headersTimeout: 5000,
      requestTimeout: 5000,
      sendTimeout: 5000,
    })
  })
  afterAll(() => server.close(1000))
  /** The journal's listeners once they are `expected` or 3 s have passed: what to assert, not a wait that throws. */
  const listenersOnceSettled = async (expected: number): Promise<number> => {
    await until(() => journal.listeners === expected).catch(() => {})
    return journal.listeners
  }

  it('sends retry, then one event per new record, and nothing historical', async () => {
    journal.record(record(0))
    const res = await fetch(`${server.url}/stream`)
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    const events = sseReader(res.body!)
    expect(await events.next(1)).toEqual([['retry: 1000']])
    await until(() => journal.listeners === 1)
    const first = journal.record(record(1))
    const second = journal.record(record(2))
    const [a, b] = await events.next(2)
    expect(a!.slice(0, 2)).toEqual([`id: ${first.id}`, 'event: request'])
    expect(JSON.parse(a![2]!.replace(/^data: /, ''))).toEqual(first)
    expect(b![0]).toBe(`id: ${second.id}`)
    await events.cancel()
  })

  it('closing the stream unsubscribes it, and only it: the one left open still gets each record', async () => {
    const open = sseReader((await fetch(`${server.url}/stream`)).body!)
    expect(await open.next(1)).toEqual([['retry: 1000']])
    const aborted = new AbortController()
    const closing = sseReader((await fetch(`${server.url}/stream`, { signal: aborted.signal })).body!)
    expect(await closing.next(1)).toEqual([['retry: 1000']])
    expect(await listenersOnceSettled(2)).toBe(2)
    aborted.abort()
    expect(await listenersOnceSettled(1)).toBe(1)
    const next = journal.record(record(3))
    const [event] = await open.next(1)
    expect(event!.slice(0, 2)).toEqual([`id: ${next.id}`, 'event: request'])
    await open.cancel()
    expect(await listenersOnceSettled(0)).toBe(0)
  })

  it('ends when the journal ends its subscriptions (session dropped, server stopping)', async () => {
    const res = await fetch(`${server.url}/stream`)
    const reader = res.body!.getReader()
    await until(() => journal.listeners === 1)
    journal.endSubscriptions()
    let text = ''
    for (let read = await reader.read(); !read.done; read = await reader.read())
      text += new TextDecoder().decode(read.value)
    expect(text).toBe('retry: 1000\n\n')
  })

  const events = 3000
  const size = 8 * 1024

  it(`a reader that keeps up gets every event (${events} of 8 KiB, paced)`, async () => {
    const res = await fetch(`${server.url}/stream`)
    const reader = sseReader(res.body!)
    await reader.next(1)
    await until(() => journal.listeners === 1)
    let received = 0
    const reading = (async () => {
      while (received < events) received += (await reader.next(1, 10_000)).length
    })()
    for (let i = 0; i < events; i++) {
      journal.record(record(i, size))
      if (i % 8 === 0) await tick()
    }
    await reading
    expect(received).toBe(events)
    expect(journal.listeners).toBe(1)
    await reader.cancel()
  })

  it('a reader that stops reading is dropped once its backlog passes the limits: memory stays bounded', async () => {
    // A raw socket that sends the request, then reads nothing: the kernel's buffers fill, then the queue.
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1')
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
    socket.write('GET /stream HTTP/1.1\r\nHost: x\r\n\r\n')
    socket.pause()
    await until(() => journal.listeners === 1)
    let droppedAt = -1
    for (let i = 0; i < events && droppedAt < 0; i++) {
      journal.record(record(i, size))
      if (journal.listeners === 0) droppedAt = i + 1
      if (i % 8 === 0) await tick()
    }
    // Dropped, not buffered: what was sent never exceeds the socket's buffers plus the queue's 1 MiB.
    expect(droppedAt).toBeGreaterThan(eventStreamLimits.maxQueued / 2)
    expect(droppedAt).toBeLessThan(events)
    // Once it reads again it gets what the socket held, then the end of the stream.
    let received = ''
    socket.on('data', (chunk) => (received += chunk.toString('latin1')))
    socket.resume()
    // The last chunk of a chunked answer: the stream ended (the connection itself may stay open).
    await until(() => received.endsWith('\r\n0\r\n\r\n'))
    const got = received.match(/event: request/g)?.length ?? 0
    expect(got).toBeLessThan(droppedAt)
    socket.destroy()
  })
})

describe('GET /__admin/requests/stream (CLI)', () => {
  let server: SpawnedServer
  beforeAll(async () => {
    server = await spawnServer(['--admin-token', 'adm', '--log', 'silent'])
  })
  afterAll(() => server?.stop())

  it('streams the entries of its session, behind the admin token, each with its answer', async () => {
    expect((await fetch(`${server.url}/__admin/requests/stream`)).status).toBe(401)
    const headers = { ...bearer('adm'), 'X-Mock-Session': 'qa' }
    // A read creates nothing: the stream of a session not made yet is 404, so the session is made first.
    expect((await fetch(`${server.url}/__admin/requests/stream`, { headers })).status).toBe(404)
    expect((await fetch(`${server.url}/__admin/sessions/qa`, { method: 'POST', headers })).status).toBe(201)
    const res = await fetch(`${server.url}/__admin/requests/stream`, { headers })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    expect(res.headers.get('cache-control')).toBe('no-cache')
    const events = sseReader(res.body!)
    expect(await events.next(1)).toEqual([['retry: 1000']])
    const api = bearer('key-1234567')
    await fetch(`${server.url}/v1/pets/1`, { headers: api })
    await fetch(`${server.url}/v1/pets/404`, { headers: { ...api, 'X-Mock-Session': 'qa' } })
    const [[id, event, data]] = (await events.next(1)) as [string[]]
    expect(event).toBe('event: request')
    const entry = JSON.parse(data!.replace(/^data: /, ''))
    expect(id).toBe(`id: ${entry.id}`)
    expect(entry).toMatchObject({
      method: 'GET',
      path: '/v1/pets/404',
      status: 404,
      authorization: 'Bearer ke…',
      response: { status: 404, body: { code: 'not_found', message: 'No pet with id 404.', status: 404 } },
    })
    const history = await (await fetch(`${server.url}/__admin/requests`, { headers })).json()
    expect(history.requests).toEqual([entry])
    await events.cancel()
  })

  it('does not hold up a SIGTERM: open streams end, and idle connections close, while a request in flight still waits; it is answered; exit 0', async () => {
    const own = await spawnServer(['--log', 'silent'])
    const res = await fetch(`${own.url}/__admin/requests/stream`)
    const events = sseReader(res.body!)
    await events.next(1)
    const idle = await idleConnection(own.url)
    // The yardstick: a request the server has in hand (100 Continue) and answers 2.5 s later. Held open
    // until the server's 5 s grace forced them, the stream and the idle connection would end after it.
    const inFlight = takenRequest(`${own.url}/v1/pets?__delay=2500`, { headers: bearer() })
    await inFlight.taken
    let answered = false
    void inFlight.answer.then(() => (answered = true))
    const exited = own.stop('SIGTERM')
    expect(await events.end().then(() => answered)).toBe(false)
    expect(await idle.closed.then(() => answered)).toBe(false)
    expect((await inFlight.answer).status).toBe(200)
    expect(await exited).toBe(0)
  })
})
