import { afterEach, describe, expect, it, vi } from 'vitest'
import { adminClient } from '../../../src/panel/api/admin-client.js'
import { followJournal, type StreamState } from '../../../src/panel/api/journal-stream.js'
import { TokenBroker } from '../../../src/panel/api/token-broker.js'
import type { JournalEntry } from '../../../src/panel/types.js'
import { journalEntry } from '../../helpers/journal-records.js'

const entry = journalEntry
const origin = 'http://127.0.0.1:4010'
const event = (e: JournalEntry) => `id: ${e.id}\nevent: request\ndata: ${JSON.stringify(e)}\n\n`
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

/** A stand-in server: a history, and event streams the test writes to and closes. */
const fakeServer = () => {
  const history: JournalEntry[] = []
  const streams: ReadableStreamDefaultController<Uint8Array>[] = []
  const encoder = new TextEncoder()
  let refuse: { res: Response; streamOnly: boolean } | undefined
  vi.stubGlobal('fetch', async (href: string, init: RequestInit = {}) => {
    const url = href.replace(origin, '').replace(/\?$/, '')
    if (refuse && (!refuse.streamOnly || url.endsWith('/stream'))) return refuse.res.clone()
    if (url === '/__admin/sessions/default') return json({ name: 'default', pets: 12, faults: 0, requests: 0 })
    if (url === '/__admin/requests') return json({ requests: [...history].reverse() })
    if (url === '/__admin/requests/stream') {
      const body = new ReadableStream<Uint8Array>({ start: (c) => void streams.push(c) })
      init.signal?.addEventListener('abort', () => streams.at(-1)?.error(new DOMException('aborted', 'AbortError')))
      return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } })
    }
    return json({ code: 'not_found', message: `No route for GET ${url}.`, status: 404 }, 404)
  })
  return {
    history,
    streams,
    send: (text: string) => streams.at(-1)!.enqueue(encoder.encode(text)),
    refuse: (res: Response | undefined, streamOnly = false) => (refuse = res && { res, streamOnly }),
  }
}

const follow = (tokens = new TokenBroker()) => {
  const states: StreamState[] = []
  const received: number[][] = []
  const controller = new AbortController()
  const done = followJournal({
    client: adminClient('default', tokens, origin),
    tokens,
    signal: controller.signal,
    onState: (s) => states.push(s),
    onEntries: (entries) => received.push(entries.map((e) => e.id)),
  })
  return { states, received, stop: () => (controller.abort(), done), tokens }
}

const until = async (check: () => boolean, ms = 2000) => {
  for (const start = Date.now(); !check(); await new Promise((r) => setTimeout(r, 5))) {
    if (Date.now() - start > ms) throw new Error('timed out')
  }
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('followJournal', () => {
  it('subscribes, loads the history, then hears every event; reconnects and reloads when dropped', async () => {
    const server = fakeServer()
    server.history.push(entry(1))
    const feed = follow()
    await until(() => feed.states.at(-1)?.state === 'live')
    server.send('retry: 20\n\n: keep-alive\n\n')
    server.history.push(entry(2))
    server.send(event(entry(2)))
    await until(() => feed.received.length === 2)
    expect(feed.received).toEqual([[1], [2]])

    // A slow reader is dropped by the server: the feed comes back and fills the gap from the history.
    server.streams.at(-1)!.close()
    server.history.push(entry(3))
    await until(() => server.streams.length === 2 && feed.states.at(-1)?.state === 'live')
    expect(feed.states.map((s) => s.state)).toEqual(['connecting', 'live', 'reconnecting', 'live'])
    expect(feed.received.at(-1)).toEqual([3, 2, 1])
    await feed.stop()
  })

  it('shows the history and the server’s reason when the stream cannot be opened', async () => {
    const server = fakeServer()
    server.history.push(entry(1))
    server.refuse(
      json({ code: 'service_unavailable', message: 'The service is temporarily unavailable.', status: 503 }, 503),
      true,
    )
    const feed = follow()
    await until(() => feed.states.at(-1)?.state === 'reconnecting')
    expect(feed.states.at(-1)).toEqual({ state: 'reconnecting', reason: 'The service is temporarily unavailable.' })
    expect(feed.received).toEqual([[1]])
    await feed.stop()
  })

  it('waits for a token when the 401 prompt was dismissed, then follows', async () => {
    const server = fakeServer()
    server.refuse(json({ code: 'unauthorized', message: 'Missing admin token.', status: 401 }, 401))
    const tokens = new TokenBroker()
    tokens.subscribe((prompt) => prompt && setTimeout(() => tokens.dismiss(), 1))
    const feed = follow(tokens)
    await until(() => feed.states.at(-1)?.state === 'locked')
    expect(feed.states.at(-1)).toEqual({ state: 'locked', reason: 'Missing admin token.' })
    server.refuse(undefined)
    tokens.provide('t')
    await until(() => feed.states.at(-1)?.state === 'live')
    await feed.stop()
  })
})
