import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { auth, contractApp } from '../../helpers/contract.js'
import { bearer } from '../../helpers/auth.js'
import type { Tenant } from '../../../src/core/tenants/tenant.js'

// GUIDE: a refused request (401, 403, any 4xx, 507) changes nothing: no session made, no rule used, no
// quota spent. Every admin route that changes a session, refused, leaves the session it names unmade:
// it is not listed and takes no place under --max-sessions. Every store (memory, Redis, replicas behind
// nginx), by X-Mock-Session and, in the prefix projects, by path prefix (and here by prefix explicitly).

const bodyLimit = 400
const maxPets = 2
const big = JSON.stringify({ operation: 'listPets', status: 503, body: 'x'.repeat(bodyLimit * 2) })
const threePets = {
  pets: [1, 2, 3].map((id) => ({ id, name: `P${id}`, categoryId: 1, status: 'available' })),
}

interface Write {
  method: string
  path: string
  /** A body of the right form whose content breaks the route's schema. */
  invalid: unknown
  /** A body the route refuses with 507 in a new session, if any. */
  tooMany?: unknown
  /** Whether the route reads YAML too (its 415 is for a type it reads neither as). */
  yaml?: boolean
}

/** Every session-scoped admin write that reads a body. */
const writes: Write[] = [
  { method: 'POST', path: '/__admin/faults', invalid: { operation: 'noSuchOperation', status: 503 } },
  { method: 'PUT', path: '/__admin/faults/down', invalid: { operation: 'listPets', status: 'soon' } },
  { method: 'PUT', path: '/__admin/state', invalid: { pets: 'x' }, tooMany: threePets, yaml: true },
  { method: 'POST', path: '/__admin/seed', invalid: { count: -1 } },
  { method: 'PUT', path: '/__admin/clock', invalid: { now: 'yesterday' } },
  { method: 'PUT', path: '/__admin/rate-limit', invalid: { rate: 'lots' } },
  { method: 'PUT', path: '/__admin/snapshot', invalid: { format: 'nope' }, yaml: true },
  { method: 'POST', path: '/__admin/provider-states', invalid: { state: 5 } },
  { method: 'PUT', path: '/__admin/timelines/down', invalid: { phases: [{ for: '0s' }] } },
]

interface Refusal {
  name: string
  status: number
  init(write: Write): RequestInit
}

const json = (body: unknown, type = 'application/json'): RequestInit => ({
  headers: auth({ 'Content-Type': type }),
  body: typeof body === 'string' ? body : JSON.stringify(body),
})

const refusals: Refusal[] = [
  { name: 'bad JSON', status: 400, init: () => json('{"operation": ') },
  { name: 'a body its schema refuses', status: 400, init: (w) => json(w.invalid) },
  { name: 'no body', status: 400, init: () => ({ headers: auth({ 'Content-Type': 'application/json' }) }) },
  { name: 'a content type it does not read', status: 415, init: (w) => json(w.invalid, 'text/csv') },
  { name: 'a body over --body-limit', status: 413, init: () => json(big) },
]

const names = async (request: ReturnType<typeof contractApp>['request']): Promise<string[]> => {
  const res = await request('/__admin/sessions', { headers: auth() })
  expect(res.status).toBe(200)
  return ((await res.json()) as { sessions: { name: string }[] }).sessions.map((s) => s.name).sort()
}

const inSession = (name: string, init: RequestInit): RequestInit => ({
  ...init,
  headers: { ...(init.headers as Record<string, string>), 'X-Mock-Session': name },
})

describe('a refused admin change makes no session', () => {
  for (const write of writes) {
    for (const refusal of refusals) {
      it(`${write.method} ${write.path}, ${refusal.name}: ${refusal.status}, no session`, async () => {
        // The cap holds the default session and one more: a refusal that made its session would take it.
        const { request } = contractApp({ bodyLimit, maxPets, maxSessions: 2 })
        const res = await request(write.path, inSession('refused-1', { method: write.method, ...refusal.init(write) }))
        expect(res.status).toBe(refusal.status)
        expect(res.headers.get('x-mock-session-created')).toBeNull()
        expect(await names(request)).toEqual(['default'])
        // Through the path prefix too.
        const prefixed = await request(`/sessions/refused-2${write.path}`, {
          method: write.method,
          ...refusal.init(write),
        })
        expect(prefixed.status).toBe(refusal.status)
        expect(await names(request)).toEqual(['default'])
        // The place under --max-sessions is still free.
        const made = await request('/__admin/sessions/made', { method: 'POST', headers: auth() })
        expect(made.status).toBe(201)
        expect(await names(request)).toEqual(['default', 'made'])
      })
    }
    if (write.tooMany !== undefined) {
      it(`${write.method} ${write.path}, more pets than --max-pets: 507, no session`, async () => {
        const { request } = contractApp({ maxPets, maxSessions: 2 })
        const init = { method: write.method, ...json(write.tooMany) }
        expect((await request(write.path, inSession('refused-1', init))).status).toBe(507)
        expect((await request(`/sessions/refused-2${write.path}`, init)).status).toBe(507)
        expect(await names(request)).toEqual(['default'])
        expect((await request('/__admin/sessions/made', { method: 'POST', headers: auth() })).status).toBe(201)
      })
    }
  }

  it('PUT /__admin/snapshot with more pets than --max-pets: 507, no session', async () => {
    const { request } = contractApp({ maxPets: 3, maxSessions: 2 })
    // A real snapshot of a session holding 3 pets, restored where at most 2 fit.
    expect((await request('/__admin/state', inSession('source', { method: 'PUT', ...json(threePets) }))).status).toBe(
      204,
    )
    const snapshot = await (
      await request('/__admin/snapshot', inSession('source', { headers: auth({ Accept: 'application/json' }) }))
    ).json()
    expect((await request('/__admin/sessions/source', { method: 'DELETE', headers: auth() })).status).toBe(204)
    const small = contractApp({ maxPets: 2, maxSessions: 2 })
    const res = await small.request('/__admin/snapshot', inSession('refused-1', { method: 'PUT', ...json(snapshot) }))
    expect(res.status).toBe(507)
    expect(await names(small.request)).toEqual(['default'])
  })

  it('DELETE /__admin/faults/{rule} of a session that does not exist: 404, no session', async () => {
    const { request } = contractApp({ maxSessions: 2 })
    for (const rule of ['7', 'down']) {
      const res = await request(
        `/__admin/faults/${rule}`,
        inSession('refused-1', { method: 'DELETE', headers: auth() }),
      )
      expect(res.status).toBe(404)
      expect(await names(request)).toEqual(['default'])
    }
  })

  it('DELETE /__admin/timelines/{name} of a session that does not exist: 404, no session', async () => {
    const { request } = contractApp({ maxSessions: 2 })
    const res = await request('/__admin/timelines/down', inSession('refused-1', { method: 'DELETE', headers: auth() }))
    expect(res.status).toBe(404)
    expect(await names(request)).toEqual(['default'])
  })

  it('PUT /__admin/timelines/{name} with a bad name: 400, no session', async () => {
    const { request } = contractApp({ maxSessions: 2 })
    const init = { method: 'PUT', ...json({ phases: [{ for: '1s', rule: { status: 503 } }] }) }
    expect((await request('/__admin/timelines/123', inSession('refused-1', init))).status).toBe(400)
    expect(await names(request)).toEqual(['default'])
  })

  it('PUT /__admin/faults/{name} with a bad rule name: 400, no session', async () => {
    const { request } = contractApp({ maxSessions: 2 })
    const init = { method: 'PUT', ...json({ operation: 'listPets', status: 503 }) }
    expect((await request('/__admin/faults/123', inSession('refused-1', init))).status).toBe(400)
    expect(await names(request)).toEqual(['default'])
  })

  it('a token whose scope does not cover the session: 403, no session', async () => {
    const { request } = contractApp({ adminTokens: ['root-secret', 'ta-secret=team-a-*', 'ro=*:read'] })
    const list = async () => {
      const res = await request('/__admin/sessions', { headers: bearer('root-secret') })
      return ((await res.json()) as { sessions: { name: string }[] }).sessions.map((s) => s.name)
    }
    for (const write of writes) {
      for (const [token, session] of [
        ['ta-secret', 'team-b-1'],
        ['ro', 'team-a-1'],
      ] as const) {
        const init = { method: write.method, headers: { ...bearer(token), 'Content-Type': 'application/json' } }
        const body = JSON.stringify(write.invalid)
        expect((await request(write.path, inSession(session, { ...init, body }))).status).toBe(403)
        expect((await request(`/sessions/${session}${write.path}`, { ...init, body })).status).toBe(403)
      }
    }
    expect(await list()).toEqual(['default'])
  })

  it('an accepted change still makes its session, and says so', async () => {
    const { request } = contractApp({ maxSessions: 2 })
    const res = await request(
      '/__admin/faults/down',
      inSession('made', { method: 'PUT', ...json({ operation: 'listPets', status: 503 }) }),
    )
    expect(res.status).toBe(201)
    expect(res.headers.get('x-mock-session-created')).toBe('true')
    expect(await names(request)).toEqual(['default', 'made'])
  })
})
describe('a refused /v1 request makes no session', () => {
  const refused: [string, number, RequestInit & { path: string }][] = [
    ['a body its schema refuses', 400, { path: '/v1/pets', method: 'POST', ...json({ name: 5 }) }],
    ['bad JSON', 400, { path: '/v1/pets', method: 'POST', ...json('{"name": ') }],
    ['a body over --body-limit', 413, { path: '/v1/pets', method: 'POST', ...json({ name: 'x'.repeat(bodyLimit) }) }],
    ['a bad query', 400, { path: '/v1/pets?limit=nope', headers: auth() }],
    ['no API key', 401, { path: '/v1/pets', headers: {} }],
  ]
  for (const [name, status, { path, ...init }] of refused) {
    it(`${name}: ${status}, by X-Mock-Session and by path prefix`, async () => {
      const { request } = contractApp({ bodyLimit, maxSessions: 2, apiKeys: ['test-token'] })
      expect((await request(path, inSession('refused-1', init))).status).toBe(status)
      expect((await request(`/sessions/refused-2${path}`, init)).status).toBe(status)
      expect(await names(request)).toEqual(['default'])
      expect((await request('/__admin/sessions/made', { method: 'POST', headers: auth() })).status).toBe(201)
    })
  }
  it('by API key (--session-by-key): no session for a refused request', async () => {
    const { app, request } = contractApp({ bodyLimit, maxSessions: 2, apiKeys: ['test-token'], sessionByKey: true })
    // Straight to the app: the prefix projects would name a session by path too (session_conflict).
    for (const [, status, { path, ...init }] of refused) {
      expect((await app.request(path, init)).status).toBe(status)
    }
    expect(await names(request)).toEqual(['default'])
  })
})

describe("a refused request spends no tenant's quota.sessions", () => {
  it('team A (quota 2): refused admin changes and /v1 requests in five sessions, then its two sessions are still made', async () => {
    const { tenants } = JSON.parse(
      readFileSync(new URL('../../../examples/tenants/tenants.json', import.meta.url), 'utf8'),
    ) as { tenants: Tenant[] }
    const { request } = contractApp({ apiKeys: ['t'], adminToken: 'root-1', tenants, bodyLimit })
    for (let i = 1; i <= 5; i++) {
      const session = `team-a-${i}`
      for (const write of writes) {
        for (const refusal of refusals) {
          const init = refusal.init(write)
          const headers = { ...(init.headers as Record<string, string>), ...bearer('adm-a-1') }
          const res = await request(write.path, inSession(session, { ...init, method: write.method, headers }))
          expect(res.status).toBe(refusal.status)
        }
      }
      const v1 = { 'Content-Type': 'application/json', ...bearer('key-a-1'), 'X-Mock-Session': session }
      expect((await request('/v1/pets', { method: 'POST', headers: v1, body: '{"name": 5}' })).status).toBe(400)
    }
    const listed = await request('/__admin/sessions', { headers: bearer('root-1') })
    expect(((await listed.json()) as { sessions: { name: string }[] }).sessions.map((s) => s.name)).toEqual(['default'])
    for (const session of ['team-a-1', 'team-a-2']) {
      const made = await request(`/__admin/sessions/${session}`, { method: 'POST', headers: bearer('adm-a-1') })
      expect(made.status).toBe(201)
    }
    const third = await request('/__admin/sessions/team-a-3', { method: 'POST', headers: bearer('adm-a-1') })
    expect(third.status).toBe(429)
  })
})
