import { describe, expect, it } from 'vitest'
import { prepareMock } from '../../../../src/core/app.js'
import { StreamRegistry } from '../../../../src/core/journal/stream/stream-registry.js'
import { streamCaps } from '../../../../src/core/journal/stream/stream-caps.js'
import { Journal } from '../../../../src/core/journal/journal.js'
import { journalRecord } from '../../../helpers/journal-records.js'

const inSession = (session: string): RequestInit => ({ headers: { 'X-Mock-Session': session } })
/** A mock with its routes registered, and its sessions. */
const built = () => {
  const mock = prepareMock()
  return { app: mock.build(), sessions: mock.sessions }
}

/** Opens a stream of `session`, made first: a stream, as every read, creates no session. */
const open = async (app: ReturnType<typeof built>['app'], session: string, method = 'GET') => {
  if (session !== 'default') await app.request(`/__admin/sessions/${session}`, { method: 'POST' })
  return app.request('/__admin/requests/stream', { ...inSession(session), method })
}
const record = (i: number) => journalRecord(i, { url: `http://x/v1/pets/${i}` })

describe('HEAD /__admin/requests/stream', () => {
  it('answers the GET status and headers without a body, and never subscribes (500 HEADs, no listener left)', async () => {
    const { app, sessions } = built()
    for (let i = 0; i < 500; i++) {
      const res = await open(app, 'default', 'HEAD')
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('text/event-stream')
      expect(res.body).toBeNull()
    }
    expect(sessions.default.journal.listeners).toBe(0)
  })

  it.each([
    ['/__admin/snapshot', 'application/json'],
    ['/__admin/requests.har', 'application/json'],
  ])('HEAD %s: the GET status and headers, no body', async (path, type) => {
    const { app } = built()
    const res = await app.request(path, { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe(type)
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename=/)
    expect(res.body).toBeNull()
  })
})

describe('a stream of a session that does not exist (issue 40 §6)', () => {
  it.each(['GET', 'HEAD'])('%s: 404 session_not_found, and the session is not made', async (method) => {
    const { app, sessions } = built()
    const res = await app.request('/__admin/requests/stream', { ...inSession('ro-made-this'), method })
    expect(res.status).toBe(404)
    expect(res.headers.get('x-mock-session-created')).toBeNull()
    if (method === 'GET') expect(await res.json()).toMatchObject({ code: 'session_not_found', status: 404 })
    const listed = await app.request('/__admin/sessions')
    expect(listed.status).toBe(200)
    expect(await listed.text()).not.toContain('ro-made-this')
    expect(sessions.default.journal.listeners).toBe(0)
  })
})

describe('event streams: one serialisation per record, caps', () => {
  it('the streams of one session share one journal subscription', async () => {
    const { app, sessions } = built()
    const streams = await Promise.all(Array.from({ length: 5 }, () => open(app, 'default')))
    expect(sessions.default.journal.listeners).toBe(1)
    await Promise.all(streams.map((res) => res.body!.cancel()))
    expect(sessions.default.journal.listeners).toBe(0)
  })

  it('each record is serialised once, whatever the number of readers, and every reader gets it', async () => {
    const journal = new Journal(10)
    let serialised = 0
    const streams = new StreamRegistry((r) => (serialised++, JSON.stringify({ id: r.id })))
    const readers = Array.from({ length: 7 }, () => streams.stream(journal).getReader())
    for (const reader of readers) await reader.read() // retry
    for (let i = 0; i < 3; i++) journal.record(record(i))
    expect(serialised).toBe(3)
    for (const reader of readers) {
      const { value } = await reader.read()
      expect(new TextDecoder().decode(value)).toBe('id: 1\nevent: request\ndata: {"id":1}\n\n')
      await reader.cancel()
    }
    expect(streams.open).toBe(0)
  })

  it(`a session's ${streamCaps.perSession + 1}th stream gets 429 with the Error body (HEAD too); closing one makes room`, async () => {
    const { app } = built()
    const streams = await Promise.all(Array.from({ length: streamCaps.perSession }, () => open(app, 'a')))
    expect(streams.map((res) => res.status)).toEqual(streams.map(() => 200))
    const refusal = {
      code: 'too_many_requests',
      message: `This session already has ${streamCaps.perSession} open event streams, the most it may have; close one first.`,
      status: 429,
    }
    for (const method of ['GET', 'HEAD']) {
      const refused = await open(app, 'a', method)
      expect(refused.status).toBe(429)
      expect(refused.headers.get('content-type')).toBe('application/json')
      if (method === 'GET') expect(await refused.json()).toEqual(refusal)
    }
    expect((await open(app, 'b')).status).toBe(200)
    await streams[0]!.body!.cancel()
    expect((await open(app, 'a')).status).toBe(200)
  })

  it(`beyond ${streamCaps.total} streams on the server: 503 with the Error body`, async () => {
    const { app, sessions } = built()
    const perSession = streamCaps.perSession
    for (let s = 0; s < streamCaps.total / perSession; s++) {
      for (let i = 0; i < perSession; i++) expect((await open(app, `s${s}`)).status).toBe(200)
    }
    const refused = await open(app, 'another')
    expect(refused.status).toBe(503)
    expect(await refused.json()).toEqual({
      code: 'service_unavailable',
      message: `The server already has ${streamCaps.total} open event streams, the most it serves; retry later.`,
      status: 503,
    })
    // A dropped session ends its streams: their places are free again.
    sessions.dropSession('s0')
    expect((await open(app, 'another')).status).toBe(200)
  })
})
