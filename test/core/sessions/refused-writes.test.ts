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
    // Refused once the request's checks passed: by what the session holds, or for want of a route.
    ['a pet that is not there', 404, { path: '/v1/pets/999', headers: auth() }],
    ['a path no route answers', 404, { path: '/v1/nothing-here', headers: auth() }],
    ['a method the path does not take', 405, { path: '/v1/pets', method: 'DELETE', headers: auth() }],
    ['a method the pet path does not take', 405, { path: '/v1/pets/999', method: 'PUT', ...json({ name: 'x' }) }],
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
  it('an OPTIONS asking what a path supports is no refusal: 204 with Allow, in its session', async () => {
    const { request } = contractApp({ maxSessions: 3, apiKeys: ['test-token'] })
    const res = await request('/v1/pets', inSession('asked', { method: 'OPTIONS', headers: auth() }))
    expect(res.status).toBe(204)
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS')
    expect(await names(request)).toEqual(['asked', 'default'])
  })
  it('a 404 in a session that exists is answered and journaled there, and the session stays', async () => {
    const { request } = contractApp({ maxSessions: 3, apiKeys: ['test-token'] })
    expect((await request('/v1/pets/1', inSession('kept', { headers: auth() }))).status).toBe(200)
    for (const path of ['/v1/pets/999', '/v1/nothing-here']) {
      const res = await request(path, inSession('kept', { headers: auth() }))
      expect(res.status).toBe(404)
      expect(res.headers.get('x-mock-session-created')).toBeNull()
    }
    expect(await names(request)).toEqual(['default', 'kept'])
    const journal = await request('/__admin/requests', inSession('kept', { headers: auth() }))
    const { requests } = (await journal.json()) as { requests: { path: string; status: number }[] }
    expect(requests.map((r) => [r.path, r.status])).toEqual([
      ['/v1/nothing-here', 404],
      ['/v1/pets/999', 404],
      ['/v1/pets/1', 200],
    ])
  })
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
      // Refused once in the session it made (no such pet): made, then dropped with its place given back.
      expect((await request('/v1/pets/999', { headers: v1 })).status).toBe(404)
      expect((await request('/v1/owners', { headers: v1 })).status).toBe(404)
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

// Refused with 507 once in the session they made: the session's contents refuse the change (the memory
// budget, --max-pets once added to the start pets). The session is made, then dropped again with the
// refusal, unless another request has used it since.
describe('a change refused with 507 in the session its request made leaves none', () => {
  type Request = ReturnType<typeof contractApp>['request']
  const pet = { id: 5, name: 'Max', categoryId: 1 }
  const budgetFull = (part: string): RegExp =>
    new RegExp(
      `^The memory budget \\(1\\.0 MiB, --max-memory\\) is full: ${part} need \\d+\\.\\d\\d MiB more and ` +
        '\\d+\\.\\d\\d MiB is free; pets hold the most \\(0\\.\\d\\d MiB\\)\\. Nothing was changed\\. To free it, ' +
        'reset sessions \\(POST /__admin/reset\\) or delete them \\(DELETE /__admin/sessions/\\{name\\}\\); ' +
        'or start with a larger --max-memory\\.$',
    )

  interface Refused {
    name: string
    method: string
    path: string
    /** The body (given the snapshot of a session of the start state). */
    body: (snapshot: Record<string, unknown>) => unknown
    /** The Error message: the memory budget's, naming the part that did not fit, or a capacity's. */
    message: RegExp | string
  }

  /** Every change a full memory budget refuses in a new session. */
  const overBudget: Refused[] = (
    [
      { name: 'createPet', method: 'POST', path: '/v1/pets', body: () => ({ name: 'n'.repeat(1000), categoryId: 1 }) },
      {
        name: 'a fault rule',
        method: 'POST',
        path: '/__admin/faults',
        body: () => ({ operation: 'listPets', status: 503 }),
      },
      {
        name: 'a named rule',
        method: 'PUT',
        path: '/__admin/faults/down',
        body: () => ({ operation: 'listPets', status: 503 }),
      },
      { name: 'a timeline', method: 'PUT', path: '/__admin/timelines/outage', body: () => ({ preset: 'outage' }) },
      { name: 'a state', method: 'PUT', path: '/__admin/state', body: () => ({ pets: [pet] }) },
      { name: 'a seed', method: 'POST', path: '/__admin/seed', body: () => ({ count: 3 }) },
      {
        name: 'a snapshot',
        method: 'PUT',
        path: '/__admin/snapshot',
        body: (snapshot) => ({ ...snapshot, pets: [pet], nextId: 6 }),
      },
      {
        name: 'a provider state',
        method: 'POST',
        path: '/__admin/provider-states',
        body: () => ({ state: 'a pet with id 5 exists', params: { name: 'Max', categoryId: 1 } }),
      },
    ] as Omit<Refused, 'message'>[]
  ).map((refused) => ({
    ...refused,
    message: budgetFull(refused.name.includes('rule') || refused.name === 'a timeline' ? 'fault rules' : 'pets'),
  }))

  /** Every change --max-pets refuses only once added to a new session's start pets (one, of at most one). */
  const overCapacity: Refused[] = [
    {
      name: 'createPet',
      method: 'POST',
      path: '/v1/pets',
      body: () => ({ name: 'Max', categoryId: 1 }),
      message: 'The store is full; no pet was created. Reset it or start with a larger --max-pets.',
    },
    {
      name: 'a provider state',
      method: 'POST',
      path: '/__admin/provider-states',
      body: () => ({ state: 'a pet with id 5 exists', params: { name: 'Max', categoryId: 1 } }),
      message: '2 pets exceed the capacity of 1; the state was not set up.',
    },
    {
      name: 'a provider state of pets',
      method: 'POST',
      path: '/__admin/provider-states',
      body: () => ({ state: 'pets exist', params: { pets: [pet] } }),
      message: '2 pets exceed the capacity of 1; the state was not set up.',
    },
  ]

  const start = { pets: [{ id: 1, name: 'Rex', categoryId: 1 }] }

  const snapshotOf = async (request: Request): Promise<Record<string, unknown>> => {
    const res = await request('/__admin/snapshot', { headers: auth({ Accept: 'application/json' }) })
    expect(res.status).toBe(200)
    return (await res.json()) as Record<string, unknown>
  }

  /** Creates pets of long names in `session` until the budget refuses one: then less than one fits. */
  const fill = async (request: Request, session: string): Promise<void> => {
    for (let i = 0; i < 1000; i++) {
      const res = await request(
        '/v1/pets',
        inSession(session, { method: 'POST', ...json({ name: 'n'.repeat(1000), categoryId: 1 }) }),
      )
      if (res.status === 507) return
      expect(res.status).toBe(201)
    }
    throw new Error('the budget never refused a create')
  }

  const usedBytes = async (request: Request): Promise<number> => {
    const res = await request('/__admin/health')
    expect(res.status).toBe(200)
    return ((await res.json()) as { memory: { state: { usedBytes: number } } }).memory.state.usedBytes
  }

  const expectRefused = async (res: Response, refused: Refused): Promise<void> => {
    expect(res.status).toBe(507)
    expect(res.headers.get('x-mock-session-created')).toBeNull()
    const body = (await res.json()) as { code: string; message: string; status: number }
    expect(Object.keys(body).sort()).toEqual(['code', 'message', 'status'])
    expect(body.code).toBe('insufficient_storage')
    expect(body.status).toBe(507)
    if (typeof refused.message === 'string') expect(body.message).toBe(refused.message)
    else expect(body.message).toMatch(refused.message)
  }

  const send = (request: Request, refused: Refused, snapshot: Record<string, unknown>, session?: string) => {
    const init = { method: refused.method, ...json(refused.body(snapshot)) }
    return session === undefined
      ? request(`/sessions/refused-2${refused.path}`, init)
      : request(refused.path, inSession(session, init))
  }

  for (const refused of overBudget) {
    it(`${refused.method} ${refused.path} (${refused.name}) beyond --max-memory: 507, no session, no place or byte spent`, async () => {
      // The cap (named sessions: the default one always exists) holds the one that fills the budget and one more.
      const { request } = contractApp({ ...start, maxMemory: 1, maxSessions: 2 })
      const snapshot = await snapshotOf(request)
      await fill(request, 'filler')
      const used = await usedBytes(request)
      await expectRefused(await send(request, refused, snapshot, 'refused-1'), refused)
      expect(await names(request)).toEqual(['default', 'filler'])
      await expectRefused(await send(request, refused, snapshot), refused)
      expect(await names(request)).toEqual(['default', 'filler'])
      // What the made session was noted for (its own bytes) is given back.
      expect(await usedBytes(request)).toBe(used)
      // The place under --max-sessions is still free, and the only one.
      expect((await request('/__admin/sessions/made', { method: 'POST', headers: auth() })).status).toBe(201)
      expect((await request('/__admin/sessions/more', { method: 'POST', headers: auth() })).status).toBe(503)
    })
  }

  for (const refused of overCapacity) {
    it(`${refused.method} ${refused.path} (${refused.name}) beyond --max-pets with the start pets: 507, no session`, async () => {
      const { request } = contractApp({ ...start, maxPets: 1, maxSessions: 1 })
      await expectRefused(await send(request, refused, {}, 'refused-1'), refused)
      await expectRefused(await send(request, refused, {}), refused)
      expect(await names(request)).toEqual(['default'])
      expect((await request('/__admin/sessions/made', { method: 'POST', headers: auth() })).status).toBe(201)
      expect((await request('/__admin/sessions/more', { method: 'POST', headers: auth() })).status).toBe(503)
    })
  }

  it('a snapshot put over a tombstone, refused: the tombstone stays (410 for the name, not a new session)', async () => {
    const { request } = contractApp({ ...start, maxMemory: 1, maxSessions: 3, sessionTtl: 1 })
    const snapshot = await snapshotOf(request)
    expect((await request('/v1/pets', inSession('gone', { headers: auth() }))).status).toBe(200)
    await new Promise((done) => setTimeout(done, 2100))
    expect((await request('/v1/pets', inSession('gone', { headers: auth() }))).status).toBe(410)
    // More pets than the whole budget holds: refused in any session.
    const pets = Array.from({ length: 6000 }, (_, i) => ({ id: i + 1, name: `pet ${i}`, categoryId: 1 }))
    const res = await request(
      '/__admin/snapshot',
      inSession('gone', { method: 'PUT', ...json({ ...snapshot, pets, nextId: 6001 }) }),
    )
    await expectRefused(res, {
      ...overBudget.find((r) => r.name === 'a snapshot')!,
      message: /^The memory budget \(1\.0 MiB, --max-memory\) is full: pets need .* Nothing was changed\./,
    })
    expect(await names(request)).toEqual(['default'])
    expect((await request('/v1/pets', inSession('gone', { headers: auth() }))).status).toBe(410)
  })

  it('a session another request used in between is kept, with that request and the refused one journaled', async () => {
    const { request } = contractApp({ ...start, maxMemory: 1, maxSessions: 3 })
    await fill(request, 'filler')
    // Made, then held 3 s by __delay before its create is refused.
    const held = request(
      '/v1/pets?__delay=3000',
      inSession('kept', { method: 'POST', ...json({ name: 'n'.repeat(1000), categoryId: 1 }) }),
    )
    const deadline = Date.now() + 20_000
    for (let i = 0; i < 2000 && !(await names(request)).includes('kept'); i++) {
      if (Date.now() > deadline) throw new Error('the held request never made its session')
      await new Promise((done) => setTimeout(done, 5))
    }
    expect((await request('/v1/pets', inSession('kept', { headers: auth() }))).status).toBe(200)
    const res = await held
    expect(res.status).toBe(507)
    // The request did make the session, and it stays: its answer says so.
    expect(res.headers.get('x-mock-session-created')).toBe('true')
    expect(await names(request)).toEqual(['default', 'filler', 'kept'])
    const journal = await request('/__admin/requests', inSession('kept', { headers: auth() }))
    const entries = ((await journal.json()) as { requests: { method: string; status: number }[] }).requests
    expect(entries.map((e) => `${e.method} ${e.status}`).sort()).toEqual(['GET 200', 'POST 507'])
  })
})

describe("a change refused with 507 spends no tenant's quota.sessions", () => {
  it('team A (quota 2, 1 MiB): its memory full, refused changes in five new sessions, then its second session is still made', async () => {
    const { tenants } = JSON.parse(
      readFileSync(new URL('../../../examples/tenants/tenants.json', import.meta.url), 'utf8'),
    ) as { tenants: Tenant[] }
    const small = tenants.map((tenant) => ({ ...tenant, quota: { ...tenant.quota, memoryMiB: 1 } }))
    const { request } = contractApp({ apiKeys: ['t'], adminToken: 'root-1', tenants: small, maxMemory: 16 })
    const v1 = (session: string) => ({
      'Content-Type': 'application/json',
      ...bearer('key-a-1'),
      'X-Mock-Session': session,
    })
    const admin = (session: string) => ({
      'Content-Type': 'application/json',
      ...bearer('adm-a-1'),
      'X-Mock-Session': session,
    })
    const big = JSON.stringify({ name: 'n'.repeat(1000), categoryId: 1 })
    let filled = false
    for (let i = 0; i < 1000 && !filled; i++) {
      const res = await request('/v1/pets', { method: 'POST', headers: v1('team-a-1'), body: big })
      filled = res.status === 507
      if (!filled) expect(res.status).toBe(201)
    }
    expect(filled).toBe(true)
    for (let i = 2; i <= 6; i++) {
      const session = `team-a-${i}`
      const created = await request('/v1/pets', { method: 'POST', headers: v1(session), body: big })
      expect(created.status).toBe(507)
      expect(((await created.json()) as { message: string }).message).toMatch(/^Tenant team-a uses /)
      const rule = JSON.stringify({ operation: 'listPets', status: 503 })
      expect(
        (await request('/__admin/faults/down', { method: 'PUT', headers: admin(session), body: rule })).status,
      ).toBe(507)
    }
    const listed = await request('/__admin/sessions', { headers: bearer('root-1') })
    expect(((await listed.json()) as { sessions: { name: string }[] }).sessions.map((s) => s.name).sort()).toEqual([
      'default',
      'team-a-1',
    ])
    const made = await request('/__admin/sessions/team-a-2', { method: 'POST', headers: bearer('adm-a-1') })
    expect(made.status).toBe(201)
    const third = await request('/__admin/sessions/team-a-3', { method: 'POST', headers: bearer('adm-a-1') })
    expect(third.status).toBe(429)
  })
})
