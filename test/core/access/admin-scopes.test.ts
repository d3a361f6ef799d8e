import { describe, expect, it } from 'vitest'
import { auth, contractApp, postJson } from '../../helpers/contract.js'
import { keyFingerprint } from '../../../src/core/http/request/key-fingerprint.js'
import { parseAdminToken } from '../../../src/core/access/admin-scopes.js'
import { globMatches } from '../../../src/core/tenants/session-glob.js'
import type { Logger } from '../../../src/core/log/log.js'
import { bearer } from '../../helpers/auth.js'

// Issue 28: admin tokens scoped to a session-name pattern and to read-only use.
const tokens = ['root-secret', 'ta-secret=team-a-*', 'qa-secret=*:read', 'tb-read=team-b-?:read']
const withToken = (token: string, init: RequestInit = {}, session?: string): RequestInit => ({
  ...init,
  headers: {
    ...(init.headers as Record<string, string>),
    ...bearer(token),
    ...(session && { 'X-Mock-Session': session }),
  },
})

const scoped = () => {
  const lines: string[] = []
  const logger: Logger = { warn: () => {}, error: () => {}, info: (m) => lines.push(m) }
  return { ...contractApp({ adminTokens: tokens, logger }), lines }
}

describe('scoped admin tokens', () => {
  it('reads SECRET, SECRET=PATTERN and :read; * is every session; a trailing = stays in the secret', () => {
    expect(parseAdminToken('s3cret')).toMatchObject({ secret: 's3cret', patterns: undefined, access: 'write' })
    expect(parseAdminToken('ta=team-a-*')).toMatchObject({ secret: 'ta', patterns: ['team-a-*'], access: 'write' })
    expect(parseAdminToken('qa=*:read')).toMatchObject({ secret: 'qa', patterns: undefined, access: 'read' })
    expect(parseAdminToken('abc==')).toMatchObject({ secret: 'abc==', patterns: undefined })
    expect(parseAdminToken('abc==team-*:read')).toMatchObject({ secret: 'abc=', patterns: ['team-*'], access: 'read' })
    expect(parseAdminToken('x y')).toMatch(/SECRET=PATTERN/)
    expect(parseAdminToken('x=a/b')).toMatch(/the pattern of an admin token/)
    expect(parseAdminToken('ta=team-a-*').toString()).not.toContain('ta=')
    expect(globMatches('team-a-*', 'team-a-42')).toBe(true)
    expect(globMatches('team-a-*', 'team-b-1')).toBe(false)
    expect(globMatches('job-?', 'job-1')).toBe(true)
    expect(globMatches('job.1', 'jobx1')).toBe(false)
  })

  it('the network scenario: no token 401, a wrong one 401, another team’s 403; nothing changes', async () => {
    const { request } = scoped()
    await request('/v1/pets', {
      ...postJson({ name: 'Mine', categoryId: 1 }),
      headers: { ...auth(), 'X-Mock-Session': 'team-b-1', 'Content-Type': 'application/json' },
    })
    expect((await request('/__admin/reset', { method: 'POST' })).status).toBe(401)
    expect((await request('/__admin/reset', withToken('guess', { method: 'POST' }))).status).toBe(401)
    const global500 = await request(
      '/__admin/faults',
      withToken('ta-secret', postJson({ status: 500 }, { Authorization: '' })),
    )
    expect(global500.status).toBe(403)
    expect((await global500.json()).message).toContain('scoped to sessions team-a-*, not default')
    const other = await request('/__admin/reset', withToken('ta-secret', { method: 'POST' }, 'team-b-1'))
    expect(other.status).toBe(403)
    expect((await other.json()).code).toBe('forbidden')
    const journal = await request('/__admin/requests', withToken('ta-secret', {}, 'team-b-1'))
    expect(journal.status).toBe(403)
    // team-b-1's world is untouched.
    const state = await request('/__admin/state', withToken('root-secret', {}, 'team-b-1'))
    expect((await state.json()).pets.map((p: { name: string }) => p.name)).toContain('Mine')
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(200)
  })

  it('a scoped token works in its sessions, by header or by path prefix', async () => {
    const { request } = scoped()
    expect(
      (
        await request(
          '/__admin/faults',
          withToken('ta-secret', postJson({ status: 500 }, { Authorization: '' }), 'team-a-1'),
        )
      ).status,
    ).toBe(201)
    expect((await request('/sessions/team-a-2/__admin/reset', withToken('ta-secret', { method: 'POST' }))).status).toBe(
      204,
    )
    expect((await request('/sessions/team-b-2/__admin/reset', withToken('ta-secret', { method: 'POST' }))).status).toBe(
      403,
    )
    expect((await request('/__admin/sessions/team-a-1', withToken('ta-secret', { method: 'DELETE' }))).status).toBe(204)
    expect((await request('/__admin/sessions/team-b-1', withToken('ta-secret', { method: 'POST' }))).status).toBe(403)
  })

  it('the session list answers a scoped token with its sessions (issue 39); health needs none', async () => {
    const { request } = scoped()
    await request('/__admin/sessions/team-a-1', withToken('root-secret', { method: 'POST' }))
    await request('/__admin/sessions/team-b-1', withToken('root-secret', { method: 'POST' }))
    const mine = await request('/__admin/sessions', withToken('ta-secret'))
    expect(mine.status).toBe(200)
    expect(((await mine.json()) as { sessions: { name: string }[] }).sessions.map((s) => s.name)).toEqual(['team-a-1'])
    expect((await request('/__admin/sessions', withToken('root-secret'))).status).toBe(200)
    expect((await request('/__admin/sessions', withToken('qa-secret'))).status).toBe(200)
    expect((await request('/__admin/health')).status).toBe(200)
  })

  it('a :read token reads everything in scope and changes nothing', async () => {
    const { request } = scoped()
    await request('/__admin/sessions/team-b-1', withToken('root-secret', { method: 'POST' }))
    for (const path of [
      '/__admin/requests',
      '/__admin/requests.har',
      '/__admin/snapshot',
      '/__admin/state',
      '/__admin/faults',
    ]) {
      expect((await request(path, withToken('qa-secret', {}, 'team-b-1'))).status, path).toBe(200)
      expect((await request(path, withToken('tb-read', {}, 'team-b-1'))).status, path).toBe(200)
    }
    expect((await request('/__admin/requests', withToken('tb-read', {}, 'team-c-1'))).status).toBe(403)
    const changes: [string, string][] = [
      ['POST', '/__admin/reset'],
      ['DELETE', '/__admin/requests'],
      ['DELETE', '/__admin/faults'],
    ]
    for (const [method, path] of changes) {
      const res = await request(path, withToken('qa-secret', { method }, 'team-b-1'))
      expect(res.status, `${method} ${path}`).toBe(403)
      expect((await res.json()).message).toContain('is read-only')
    }
  })

  it('a :read token creates no session, event stream included: 404 session_not_found (issue 40 §6)', async () => {
    const { request } = scoped()
    for (const method of ['HEAD', 'GET']) {
      const res = await request('/__admin/requests/stream', withToken('qa-secret', { method }, 'team-b-ro-made-this'))
      if (res.status === 200) await res.body?.cancel()
      expect(res.status, method).toBe(404)
      expect(res.headers.get('x-mock-session-created'), method).toBeNull()
      if (method === 'GET') expect(await res.json()).toMatchObject({ code: 'session_not_found', status: 404 })
    }
    const listed = await request('/__admin/sessions', withToken('root-secret'))
    expect(await listed.text()).not.toContain('team-b-ro-made-this')
    // Once made (by a change, here root's POST), the same token follows it (HEAD: the contract check reads no endless body).
    await request('/__admin/sessions/team-b-ro-made-this', withToken('root-secret', { method: 'POST' }))
    const head = withToken('qa-secret', { method: 'HEAD' }, 'team-b-ro-made-this')
    const stream = await request('/__admin/requests/stream', head)
    expect(stream.status).toBe(200)
    expect(stream.headers.get('x-mock-session-created')).toBeNull()
  })

  it('logs every change and refusal with the session, the scope and the token’s fingerprint, never the secret', async () => {
    const { request, lines } = scoped()
    await request('/__admin/reset', withToken('ta-secret', { method: 'POST' }, 'team-a-1'))
    await request('/__admin/reset', withToken('ta-secret', { method: 'POST' }, 'team-b-1'))
    await request('/__admin/reset', withToken('guess', { method: 'POST' }))
    expect(lines).toEqual([
      `admin POST /__admin/reset session=team-a-1 scope="sessions team-a-*" token=${keyFingerprint('ta-secret')} → 204`,
      `admin POST /__admin/reset session=team-b-1 scope="sessions team-a-*" token=${keyFingerprint('ta-secret')} → 403`,
      `admin POST /__admin/reset session=default scope="open" token=none → 401 (unknown token ${keyFingerprint('guess')})`,
    ])
    expect(lines.join('\n')).not.toContain('ta-secret')
  })
})
