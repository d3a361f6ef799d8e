import { describe, expect, it } from 'vitest'
import { fakePets } from '../../../src/index.js'
import { auth, contractApp, postJson } from '../../helpers/contract.js'

const pets = [
  { id: 1, name: 'a', categoryId: 1, status: 'sold' as const },
  { id: 2, name: 'b', categoryId: 2 },
]
const json = (body: unknown, method = 'POST', headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
})

describe('state control', () => {
  it('GET /__admin/state returns every pet', async () => {
    const { request } = contractApp({ pets })
    await request('/v1/pets', postJson({ name: 'c', categoryId: 3 }))
    expect(await (await request('/__admin/state')).json()).toEqual({
      pets: [...pets, { id: 3, name: 'c', categoryId: 3 }],
    })
  })

  it('PUT /__admin/state replaces the pets; new ids continue after the largest', async () => {
    const { request } = contractApp({ pets })
    const res = await request('/__admin/state', json({ pets: [{ id: 10, name: 'z', categoryId: 1 }] }, 'PUT'))
    expect(res.status).toBe(204)
    expect(await (await request('/v1/pets', { headers: auth() })).json()).toEqual([
      { id: 10, name: 'z', categoryId: 1 },
    ])
    expect((await (await request('/v1/pets', postJson({ name: 'n', categoryId: 1 }))).json()).id).toBe(11)
  })

  it.each([
    [{ pets: [{ id: 1, name: 'a' }] }, 'state: entry 0: categoryId is required.'],
    [
      {
        pets: [
          { id: 1, name: 'a', categoryId: 1 },
          { id: 1, name: 'b', categoryId: 1 },
        ],
      },
      'state: entry 1: id 1 is already used by entry 0.',
    ],
    [
      { pets: [{ id: 1, name: 'a', categoryId: 1, status: 'x' }] },
      'state: entry 0: status must be one of available, pending, sold.',
    ],
    [[{ id: 1, name: 'a', categoryId: 1 }], 'state: must be { "pets": [...] }.'],
    [
      '{"pets":[{"id":1,"name":"a","categoryId":9007199254740993}]}',
      'state: entry 0: categoryId must be an integer between -9007199254740991 and 9007199254740991.',
    ],
  ])('PUT %j → 400 naming the entry and field, nothing replaced', async (body, message) => {
    const { request } = contractApp({ pets })
    const res = await request('/__admin/state', json(body, 'PUT'))
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ code: 'bad_request', message, status: 400 })
    expect(await (await request('/__admin/state')).json()).toEqual({ pets })
  })

  it('PUT beyond capacity is a 507 and replaces nothing', async () => {
    const { request } = contractApp({ pets, maxPets: 1 })
    const res = await request('/__admin/state', json({ pets }, 'PUT'))
    expect(res.status).toBe(507)
    expect(await (await request('/__admin/state')).json()).toEqual({ pets })
  })

  it('POST /__admin/seed replaces the pets with faker data, deterministically', async () => {
    const { request } = contractApp({ pets })
    expect((await request('/__admin/seed', json({ count: 30, seed: 9 }))).status).toBe(204)
    expect(await (await request('/__admin/state')).json()).toEqual({ pets: await fakePets(30, 9) })
  })

  it.each([
    [{}, 'count must be an integer between 0 and 100000.'],
    [{ count: -1 }, 'count must be an integer between 0 and 100000.'],
    [{ count: 5, seed: 'x' }, 'seed must be an integer between 0 and 4294967295.'],
    [{ count: 5, size: 1 }, 'size is not a known field.'],
    [null, 'count must be an integer between 0 and 100000.'],
  ])('POST /__admin/seed %j → 400', async (body, message) => {
    const { request } = contractApp({ pets })
    const res = await request('/__admin/seed', json(body))
    expect(res.status).toBe(400)
    expect((await res.json()).message).toBe(message)
  })

  it('POST /__admin/reset goes back to the start-up state: pets, rules, journal, id counter', async () => {
    const { request } = contractApp({ pets, faults: [{ operation: 'getPet', status: 500, times: 1 }] })
    await request('/v1/pets', postJson({ name: 'c', categoryId: 3 }))
    await request('/v1/pets/1', { headers: auth() })
    await request('/__admin/faults', json({ status: 503 }))
    expect((await request('/__admin/reset', { method: 'POST' })).status).toBe(204)
    expect(await (await request('/__admin/state')).json()).toEqual({ pets })
    expect(await (await request('/__admin/faults')).json()).toEqual({
      faults: [{ id: 1, operation: 'getPet', status: 500, times: 1, remaining: 1 }],
    })
    expect(await (await request('/__admin/requests')).json()).toEqual({ requests: [] })
    expect((await (await request('/v1/pets', postJson({ name: 'd', categoryId: 3 }))).json()).id).toBe(3)
  })
})

describe('request journal', () => {
  it('records every /v1 request with the body, redacted auth and what shaped it', async () => {
    const { request } = contractApp({ pets })
    await request('/v1/pets?limit=1&x=a&x=b', { headers: auth({}, 'abcdefghijkl') })
    await request('/v1/pets', postJson({ name: 'c', categoryId: 3, extra: true }, { Prefer: 'code=503' }))
    await request('/v1/pets', postJson({ name: 'd', categoryId: 4 }))
    const { requests } = await (await request('/__admin/requests')).json()
    expect(requests).toHaveLength(3)
    const [created, forced, listed] = requests
    expect(listed).toMatchObject({
      method: 'GET',
      path: '/v1/pets',
      query: { limit: '1', x: ['a', 'b'] },
      operation: 'listPets',
      status: 200,
      authorization: 'Bearer ab…',
    })
    expect(JSON.stringify(requests)).not.toContain('abcdefghijkl')
    expect(forced).toMatchObject({ status: 503, shapedBy: [{ by: 'override', status: 503 }] })
    expect(created).toMatchObject({ status: 201, body: { name: 'd', categoryId: 4 } })
    expect(created.id).toBeGreaterThan(forced.id)
    expect(typeof created.durationMs).toBe('number')
    expect(new Date(created.time).toISOString()).toBe(created.time)
  })

  it('filters by operation and status, limits, and clears', async () => {
    const { request } = contractApp({ pets })
    await request('/v1/pets/1', { headers: auth() })
    await request('/v1/pets/99', { headers: auth() })
    await request('/v1/pets', { headers: auth() })
    const get = async (q: string) => (await (await request(`/__admin/requests${q}`)).json()).requests
    expect((await get('?operation=getPet')).map((r: { path: string }) => r.path)).toEqual(['/v1/pets/99', '/v1/pets/1'])
    expect((await get('?status=404')).map((r: { path: string }) => r.path)).toEqual(['/v1/pets/99'])
    expect(await get('?limit=1')).toHaveLength(1)
    expect((await request('/__admin/requests', { method: 'DELETE' })).status).toBe(204)
    expect(await get('')).toEqual([])
  })

  it.each([
    ['?limit=0', 'limit must be an integer between 1 and 1000000 (got "0").'],
    ['?status=abc', 'status must be an integer between 0 and 599 (got "abc").'],
    ['?operation=deletePet', 'operation must be one of listPets, createPet, getPet (got "deletePet").'],
  ])('GET /__admin/requests%s → 400', async (q, message) => {
    const { request } = contractApp({ pets })
    const res = await request(`/__admin/requests${q}`)
    expect(res.status).toBe(400)
    expect((await res.json()).message).toBe(message)
  })

  it('stays within its bound and cuts long bodies', async () => {
    const { request } = contractApp({ pets: [], journalSize: 5 })
    for (let i = 0; i < 12; i++) await request('/v1/pets', { headers: auth() })
    await request('/v1/pets', postJson({ name: 'x'.repeat(10_000), categoryId: 1 }))
    const { requests } = await (await request('/__admin/requests')).json()
    expect(requests).toHaveLength(5)
    expect(requests[0].body).toHaveLength(4096)
    expect(requests[0].bodyTruncated).toBe(true)
  })
})

describe('health and admin protection', () => {
  it('GET /__admin/health is cheap and open', async () => {
    const { request } = contractApp({ pets, adminToken: 'adm' })
    const res = await request('/__admin/health')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      status: 'ok',
      version: '0.1.0',
      uptimeSeconds: 0,
      pets: 2,
      sessions: 1,
      sessionsDropped: 0,
    })
  })

  it.each([
    ['GET', '/__admin/faults', 200],
    ['GET', '/__admin/state', 200],
    ['POST', '/__admin/reset', 204],
    ['GET', '/__admin/requests', 200],
    ['GET', '/__admin/sessions', 200],
    ['DELETE', '/__admin/sessions/x', 404],
  ])('with --admin-token, %s %s needs it', async (method, url, status) => {
    const { request } = contractApp({ pets, adminToken: 'adm', apiKeys: ['api'] })
    const missing = await request(url, { method })
    expect(missing.status).toBe(401)
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="petstore-admin"')
    expect((await request(url, { method, headers: { Authorization: 'Bearer api' } })).status).toBe(401)
    expect((await request(url, { method, headers: { Authorization: 'Bearer adm' } })).status).toBe(status)
  })

  it.each([
    ['wrong content type', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{}' }, 415],
    ['bad JSON', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{' }, 400],
    [
      'too large',
      { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: `{"x":"${'y'.repeat(2000)}"}` },
      413,
    ],
  ])('admin bodies: %s → %i', async (_, init, status) => {
    const { request } = contractApp({ pets, bodyLimit: 1000 })
    const res = await request('/__admin/faults', init)
    expect(res.status).toBe(status)
    expect((await res.json()).status).toBe(status)
  })

  it('unknown admin routes are 404, wrong methods 405', async () => {
    const { request } = contractApp({ pets })
    expect((await request('/__admin/nope')).status).toBe(404)
    const res = await request('/__admin/reset')
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('POST, OPTIONS')
  })
})
