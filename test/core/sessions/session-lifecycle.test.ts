import { describe, expect, it } from 'vitest'
import { auth, contractApp, postJson } from '../../helpers/contract.js'
import type { Logger } from '../../../src/core/log/log.js'

// Issue 28: a session's world is never silently replaced. Every store (memory, Redis, replicas behind nginx).
const inSession = (name: string, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { ...(init.headers as Record<string, string>), 'X-Mock-Session': name },
})
const json = async (res: Response | Promise<Response>) => (await res).json()
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const logged = () => {
  const lines: string[] = []
  const logger: Logger = { warn: (m) => lines.push(m), error: () => {}, info: (m) => lines.push(m) }
  return { lines, logger }
}

describe('--max-sessions: the cap refuses a new session, it never drops a live one', () => {
  it('keeps job-a’s pet and rule; job-d gets 503 too_many_sessions saying how many and how to free one', async () => {
    const { request } = contractApp({ maxSessions: 3 })
    await request('/v1/pets', inSession('job-a', postJson({ name: 'Kept', categoryId: 1 })))
    await request('/__admin/faults', inSession('job-a', postJson({ operation: 'listPets', status: 503 })))
    for (const name of ['job-b', 'job-c'])
      expect((await request('/v1/pets', inSession(name, { headers: auth() }))).status).toBe(200)
    const refused = await request('/v1/pets', inSession('job-d', { headers: auth() }))
    expect(refused.status).toBe(503)
    const body = await refused.json()
    expect(body.code).toBe('too_many_sessions')
    expect(body.message).toContain('3 sessions exist, the most this server keeps (--max-sessions 3)')
    expect(body.message).toContain('DELETE /__admin/sessions/{name}')
    // job-a's world is intact: the rule still answers, and the pet is there.
    expect((await request('/v1/pets', inSession('job-a', { headers: auth() }))).status).toBe(503)
    const state = await json(request('/__admin/state', inSession('job-a')))
    expect(state.pets.map((p: { name: string }) => p.name)).toContain('Kept')
    // Freeing one makes room.
    expect((await request('/__admin/sessions/job-b', { method: 'DELETE' })).status).toBe(204)
    const made = await request('/v1/pets', inSession('job-d', { headers: auth() }))
    expect(made.status).toBe(200)
    expect(made.headers.get('x-mock-session-created')).toBe('true')
  })
})

describe('reads create nothing; the answer that creates a session says so', () => {
  it('an admin read of an unknown session is 404 session_not_found; a write creates it', async () => {
    const { request } = contractApp()
    const missing = await request('/__admin/requests', inSession('nobody'))
    expect(missing.status).toBe(404)
    expect((await missing.json()).code).toBe('session_not_found')
    expect((await request('/__admin/state', inSession('nobody'))).status).toBe(404)
    const names = (await json(request('/__admin/sessions'))).sessions.map((s: { name: string }) => s.name)
    expect(names).toEqual(['default'])
    const created = await request('/__admin/sessions/nobody', { method: 'POST' })
    expect(created.status).toBe(201)
    expect(created.headers.get('x-mock-session-created')).toBe('true')
    expect(await created.json()).toMatchObject({ name: 'nobody', requests: 0 })
    const again = await request('/__admin/sessions/nobody', { method: 'POST' })
    expect(again.status).toBe(200)
    expect(again.headers.get('x-mock-session-created')).toBeNull()
    expect((await request('/__admin/requests', inSession('nobody'))).status).toBe(200)
    const write = await request('/__admin/faults', inSession('fresh', postJson({ status: 500 })))
    expect(write.status).toBe(201)
    expect(write.headers.get('x-mock-session-created')).toBe('true')
  })
})

describe('--session-ttl: an idle session is dropped, leaving a tombstone; never a silent 200', () => {
  it('answers 410 session_expired saying when and why, logs and counts the drop, until created again', async () => {
    const { lines, logger } = logged()
    const { request } = contractApp({ sessionTtl: 1, logger })
    await request('/v1/pets', inSession('job-a', postJson({ name: 'Gone', categoryId: 1 })))
    await request('/__admin/faults', inSession('job-a', postJson({ operation: 'listPets', status: 503 })))
    await sleep(2100)
    const expired = await request('/v1/pets', inSession('job-a', { headers: auth() }))
    expect(expired.status).toBe(410)
    const body = await expired.json()
    expect(body.code).toBe('session_expired')
    expect(body.message).toMatch(/^Session job-a expired at \d{4}-\d\d-\d\dT[\d:.]+Z: idle for more than 1 s/)
    expect(body.message).toContain('POST /__admin/sessions/job-a')
    // Admin reads and writes too; the default session never expires.
    expect((await request('/__admin/requests', inSession('job-a'))).status).toBe(410)
    expect((await request('/__admin/faults', inSession('job-a', postJson({ status: 500 })))).status).toBe(410)
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(200)
    expect(lines.some((line) => /^session job-a dropped at .*idle for more than 1 s/.test(line))).toBe(true)
    const health = await json(request('/__admin/health'))
    expect(health.sessionsDropped).toBe(1)
    const listed = await json(request('/__admin/sessions'))
    expect(listed.expired).toEqual([{ name: 'job-a', expiredAt: expect.any(String), reason: 'idle' }])
    // Created again explicitly: a fresh world, the created header, no tombstone.
    const revived = await request('/__admin/sessions/job-a', { method: 'POST' })
    expect(revived.status).toBe(201)
    const fresh = await request('/v1/pets?limit=100', inSession('job-a', { headers: auth() }))
    expect(fresh.status).toBe(200)
    expect((await fresh.json()).map((p: { name: string }) => p.name)).not.toContain('Gone')
    expect((await json(request('/__admin/sessions'))).expired).toEqual([])
  })

  it('POST /__admin/reset in an expired session creates it again', async () => {
    const { request } = contractApp({ sessionTtl: 1 })
    await request('/v1/pets', inSession('job-r', { headers: auth() }))
    await sleep(2100)
    expect((await request('/v1/pets', inSession('job-r', { headers: auth() }))).status).toBe(410)
    const reset = await request('/__admin/reset', inSession('job-r', { method: 'POST' }))
    expect(reset.status).toBe(204)
    expect(reset.headers.get('x-mock-session-created')).toBe('true')
    expect((await request('/v1/pets', inSession('job-r', { headers: auth() }))).status).toBe(200)
  })

  it('at the cap, only sessions idle past the TTL are dropped to make room', async () => {
    const { request } = contractApp({ sessionTtl: 1, maxSessions: 1 })
    await request('/v1/pets', inSession('old', { headers: auth() }))
    await sleep(2100)
    expect((await request('/v1/pets', inSession('new', { headers: auth() }))).status).toBe(200)
    expect((await request('/v1/pets', inSession('old', { headers: auth() }))).status).toBe(410)
  })
})
