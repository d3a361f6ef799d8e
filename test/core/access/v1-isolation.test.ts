import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { checkTenants } from '../../../src/core/tenants/check-tenants.js'
import type { Tenant } from '../../../src/core/tenants/tenant.js'
import { sessionCreatedHeader } from '../../../src/core/sessions/lifecycle.js'
import { auth, contractApp, postJson } from '../../helpers/contract.js'
import { bearer } from '../../helpers/auth.js'

// Issue 39 §1: /v1 isolation. Authentication comes first (a request whose credentials fail changes
// nothing), and with tenants a key reaches only its own tenant's sessions. A contract suite: it runs on
// memory here, and on Redis, over three replicas behind nginx and through the path prefix in
// vitest.redis.config.ts.

const tenants = checkTenants(
  JSON.parse(readFileSync(new URL('../../../examples/tenants/tenants.json', import.meta.url), 'utf8')),
) as Tenant[]
const root = bearer('root')
const forbidden = {
  code: 'session_forbidden',
  message:
    'This API key may not reach the session this request names; a key reaches only the sessions of its own tenant.',
  status: 403,
}
const pet = { name: 'planted', categoryId: 1 }

type Request = ReturnType<typeof contractApp>['request']

const sessionNames = async (request: Request): Promise<string[]> => {
  const { sessions } = (await (await request('/__admin/sessions', { headers: root })).json()) as {
    sessions: { name: string }[]
  }
  return sessions.map((s) => s.name).sort()
}
const petNames = async (request: Request, session: string, key: string): Promise<string[]> => {
  const res = await request(`/sessions/${session}/v1/pets?limit=100`, { headers: auth({}, key) })
  expect(res.status).toBe(200)
  return ((await res.json()) as { name: string }[]).map((p) => p.name)
}

describe('with tenants: a /v1 key reaches only its own tenant’s sessions', () => {
  const app = () => contractApp({ tenants, apiKeys: ['key-x'], adminToken: 'root' })

  it.each([
    ['a team-a key, team-b’s session by prefix', 'key-a-1', '/sessions/team-b-1/v1/pets', {}],
    ['a team-a key, team-b’s session by header', 'key-a-1', '/v1/pets', { 'X-Mock-Session': 'team-b-1' }],
    ['a key of no tenant, team-b’s session', 'key-x', '/sessions/team-b-1/v1/pets', {}],
    ['a team-a key, the default session', 'key-a-1', '/v1/pets', {}],
    ['a team-a key, a session of no tenant', 'key-a-1', '/sessions/shared-1/v1/pets', {}],
  ])('%s: 403 session_forbidden, and nothing changed', async (_, key, url, headers) => {
    const { request } = app()
    expect(
      (await request('/sessions/team-b-1/v1/pets', postJson({ name: 'Own', categoryId: 1 }, auth({}, 'key-b-1'))))
        .status,
    ).toBe(201)
    const before = await sessionNames(request)
    const coverage = await (await request('/sessions/team-b-1/__admin/coverage', { headers: root })).json()
    const res = await request(url, postJson(pet, auth(headers, key)))
    expect(res.status).toBe(403)
    expect(res.headers.get(sessionCreatedHeader)).toBeNull()
    expect(await res.json()).toEqual(forbidden)
    expect(await sessionNames(request)).toEqual(before)
    expect(await (await request('/sessions/team-b-1/__admin/coverage', { headers: root })).json()).toEqual(coverage)
    // Last: the read is team-b's own, and counts.
    expect(await petNames(request, 'team-b-1', 'key-b-1')).not.toContain('planted')
  })

  it('a read is refused too, and the message names neither the other tenant nor its session', async () => {
    const { request } = app()
    const res = await request('/sessions/team-b-7/v1/pets/1', { headers: auth({}, 'key-a-1') })
    expect(res.status).toBe(403)
    const text = await res.text()
    expect(text).not.toMatch(/team-b|team-a|key-a-1/)
    expect(await sessionNames(request)).toEqual(['default'])
  })

  it('each key reaches its own: team-a’s key team-a’s sessions, a key of no tenant the default and unowned ones', async () => {
    const { request } = app()
    const planted = await request('/sessions/team-a-1/v1/pets', postJson(pet, auth({}, 'key-a-1')))
    expect(planted.status).toBe(201)
    expect(planted.headers.get(sessionCreatedHeader)).toBe('true')
    expect((await request('/v1/pets', { headers: auth({}, 'key-x') })).status).toBe(200)
    expect((await request('/sessions/shared-1/v1/pets', { headers: auth({}, 'key-x') })).status).toBe(200)
    expect(await petNames(request, 'team-a-1', 'key-a-1')).toContain('planted')
    expect(await sessionNames(request)).toEqual(['default', 'shared-1', 'team-a-1'])
  })

  it('the tenants’ keys are accepted beside --api-key; any other is 401 before any session', async () => {
    const { request } = app()
    const res = await request('/sessions/team-a-2/v1/pets', { headers: auth({}, 'key-b-2') })
    expect(res.status).toBe(401)
    expect(res.headers.get(sessionCreatedHeader)).toBeNull()
    expect((await request('/sessions/team-b-2/v1/pets', { headers: auth({}, 'key-b-1') })).status).toBe(200)
    expect(await sessionNames(request)).toEqual(['default', 'team-b-2'])
  })

  it('a session created by a team-b request is still refused to team-a: the check comes before selection', async () => {
    const { request } = app()
    await request('/sessions/team-b-3/v1/pets', { headers: auth({}, 'key-b-1') })
    await request('/__admin/faults', {
      method: 'POST',
      headers: { ...root, 'Content-Type': 'application/json', 'X-Mock-Session': 'team-b-3' },
      body: JSON.stringify({ operation: 'listPets', status: 503, times: 1 }),
    })
    expect((await request('/sessions/team-b-3/v1/pets', { headers: auth({}, 'key-a-1') })).status).toBe(403)
    // The rule is still there for team-b.
    expect((await request('/sessions/team-b-3/v1/pets', { headers: auth({}, 'key-b-1') })).status).toBe(503)
  })
})

describe('authentication comes first: a request whose credentials fail changes nothing', () => {
  it('four unauthenticated requests do not use up a times: 3 rule (the issue: 503 503 503 401)', async () => {
    const { request } = contractApp({ apiKeys: ['key-a', 'key-b'], adminToken: 'root' })
    const rule = await request('/__admin/faults', {
      method: 'POST',
      headers: { ...root, 'Content-Type': 'application/json', 'X-Mock-Session': 'victim' },
      body: JSON.stringify({ operation: 'listPets', status: 503, times: 3 }),
    })
    expect(rule.status).toBe(201)
    const statuses = async (headers: Record<string, string>, n: number) => {
      const out: number[] = []
      for (let i = 0; i < n; i++) out.push((await request('/sessions/victim/v1/pets', { headers })).status)
      return out
    }
    expect(await statuses({}, 4)).toEqual([401, 401, 401, 401])
    expect(await statuses(bearer('wrong'), 2)).toEqual([401, 401])
    expect(await statuses(bearer('key-b'), 4)).toEqual([503, 503, 503, 200])
  })

  it('a 401 makes no session (no X-Mock-Session-Created), and 401s do not fill --max-sessions', async () => {
    const { request } = contractApp({ apiKeys: ['key-a'], adminToken: 'root', maxSessions: 5 })
    for (let i = 1; i <= 6; i++) {
      const res = await request(`/sessions/junk${i}/v1/pets`)
      expect(res.status).toBe(401)
      expect(res.headers.get(sessionCreatedHeader)).toBeNull()
    }
    expect(await sessionNames(request)).toEqual(['default'])
    for (let i = 1; i <= 4; i++) {
      const res = await request(`/sessions/job-${i}/v1/pets`, { headers: auth({}, 'key-a') })
      expect(res.status).toBe(200)
      expect(res.headers.get(sessionCreatedHeader)).toBe('true')
    }
  })

  it('a 401 moves no rate-limit window, is journaled nowhere and counts no coverage', async () => {
    const { request } = contractApp({ apiKeys: ['key-a'], adminToken: 'root' })
    await request('/__admin/rate-limit', {
      method: 'PUT',
      headers: { ...root, 'Content-Type': 'application/json', 'X-Mock-Session': 'victim' },
      body: JSON.stringify({ limit: 1, windowSeconds: 60 }),
    })
    for (let i = 0; i < 3; i++) {
      const res = await request('/sessions/victim/v1/pets', { headers: bearer('wrong') })
      expect(res.status).toBe(401)
      expect(res.headers.get('ratelimit-policy')).toBeNull()
    }
    expect((await request('/sessions/victim/v1/pets', { headers: auth({}, 'key-a') })).status).toBe(200)
    const journal = await (await request('/sessions/victim/__admin/requests', { headers: root })).json()
    expect(journal.requests.map((r: { status: number }) => r.status)).toEqual([200])
    const coverage = await (await request('/sessions/victim/__admin/coverage', { headers: root })).json()
    expect(coverage).toMatchObject({ covered: 1, requests: 1 })
  })

  it('overrides (Prefer, __delay, __code) are not applied to a request that fails authentication', async () => {
    const { request } = contractApp({ apiKeys: ['key-a'] })
    const res = await request('/v1/pets/1?__code=503&__delay=30000', {
      headers: { Prefer: 'code=500, delay=30000', Authorization: 'Bearer nope' },
    })
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject({ code: 'unauthorized', status: 401 })
  })

  it('an unknown /v1 path answers 404 without credentials too, from no session', async () => {
    const { request } = contractApp({ apiKeys: ['key-a'], adminToken: 'root' })
    const res = await request('/sessions/junk/v1/owners')
    expect(res.status).toBe(404)
    expect(res.headers.get(sessionCreatedHeader)).toBeNull()
    expect(await sessionNames(request)).toEqual(['default'])
    // With credentials too: no route is a refusal (the GUIDE: any 4xx makes no session).
    const authenticated = await request('/sessions/mine/v1/owners', { headers: auth({}, 'key-a') })
    expect(authenticated.status).toBe(404)
    expect(authenticated.headers.get(sessionCreatedHeader)).toBeNull()
    expect(await sessionNames(request)).toEqual(['default'])
  })
})
