import { describe, expect, it } from 'vitest'
import { auth, contractApp, postJson } from '../../helpers/contract.js'

const pets = [
  { id: 5, name: 'Eve', categoryId: 2, status: 'sold' as const },
  { id: 1, name: 'Ann', categoryId: 1, status: 'available' as const },
  { id: 3, name: 'Cid', categoryId: 1 },
  { id: 2, name: 'Bob', categoryId: 3, status: 'available' as const },
]

describe('listPets', () => {
  it('answers a bare array ordered by id, default limit 20', async () => {
    const { request } = contractApp({ pets })
    const res = await request('/v1/pets', { headers: auth() })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect((await res.json()).map((p: { id: number }) => p.id)).toEqual([1, 2, 3, 5])
  })

  it('honours limit and filters by status', async () => {
    const { request } = contractApp({ pets })
    expect(await (await request('/v1/pets?limit=2', { headers: auth() })).json()).toEqual([pets[1], pets[3]])
    expect(await (await request('/v1/pets?status=available&limit=1', { headers: auth() })).json()).toEqual([pets[1]])
    expect(await (await request('/v1/pets?status=pending', { headers: auth() })).json()).toEqual([])
  })

  it('returns at most 20 by default and 100 at most', async () => {
    const many = Array.from({ length: 150 }, (_, i) => ({ id: i + 1, name: `p${i}`, categoryId: 1 }))
    const { request } = contractApp({ pets: many })
    expect(await (await request('/v1/pets', { headers: auth() })).json()).toHaveLength(20)
    expect(await (await request('/v1/pets?limit=100', { headers: auth() })).json()).toHaveLength(100)
  })

  it('ignores unknown query parameters', async () => {
    const { request } = contractApp({ pets })
    expect((await request('/v1/pets?page=2&x', { headers: auth() })).status).toBe(200)
  })
})

describe('createPet', () => {
  it('answers 201 with the pet, its new id and a Location', async () => {
    const { request } = contractApp({ pets })
    const res = await request('/v1/pets', postJson({ name: 'Rex', categoryId: 4, status: 'pending' }))
    expect(res.status).toBe(201)
    expect(res.headers.get('location')).toBe('/v1/pets/6')
    expect(await res.text()).toBe('{"id":6,"name":"Rex","categoryId":4,"status":"pending"}')
  })

  it('stores no status key when none is sent, never null', async () => {
    const { request } = contractApp({ pets })
    const created = await (await request('/v1/pets', postJson({ name: 'Rex', categoryId: 4 }))).json()
    expect(created).toEqual({ id: 6, name: 'Rex', categoryId: 4 })
    expect(Object.keys(await (await request('/v1/pets/6', { headers: auth() })).json())).toEqual([
      'id',
      'name',
      'categoryId',
    ])
  })

  it('ignores unknown fields and a client-sent id', async () => {
    const { request } = contractApp({ pets })
    const res = await request(
      '/v1/pets',
      postJson({ id: 1, name: 'Rex', categoryId: 4, colour: 'red', extra: { a: 1 } }),
    )
    expect(await res.json()).toEqual({ id: 6, name: 'Rex', categoryId: 4 })
    expect(await (await request('/v1/pets/1', { headers: auth() })).json()).toEqual(pets[1])
  })

  it('gives increasing ids, never reused, and every created pet is listed and readable', async () => {
    const { request } = contractApp({ pets: [] })
    const ids: number[] = []
    for (let i = 0; i < 5; i++)
      ids.push((await (await request('/v1/pets', postJson({ name: `n${i}`, categoryId: i }))).json()).id)
    expect(ids).toEqual([1, 2, 3, 4, 5])
    const listed = await (await request('/v1/pets', { headers: auth() })).json()
    expect(listed.map((p: { id: number }) => p.id)).toEqual(ids)
    for (const id of ids) expect((await request(`/v1/pets/${id}`, { headers: auth() })).status).toBe(200)
  })

  it('accepts charset and other parameters on the media type', async () => {
    const { request } = contractApp({ pets })
    const res = await request(
      '/v1/pets',
      postJson({ name: 'Rex', categoryId: 1 }, { 'Content-Type': 'Application/JSON; charset=utf-8' }),
    )
    expect(res.status).toBe(201)
  })

  it('answers 507 when the store is full, and evicts nothing', async () => {
    const { request } = contractApp({ pets, maxPets: 5 })
    expect((await request('/v1/pets', postJson({ name: 'A', categoryId: 1 }))).status).toBe(201)
    const res = await request('/v1/pets', postJson({ name: 'B', categoryId: 1 }))
    expect(res.status).toBe(507)
    expect(await res.json()).toMatchObject({ code: 'insufficient_storage', status: 507 })
    expect(await (await request('/v1/pets', { headers: auth() })).json()).toHaveLength(5)
  })
})

describe('getPet (deprecated)', () => {
  const deprecationHeaders = (res: Response) => ({
    deprecation: res.headers.get('deprecation'),
    sunset: res.headers.get('sunset'),
    link: res.headers.get('link'),
  })
  const expected = {
    deprecation: '@0',
    sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
    link: '</v1/pets>; rel="successor-version"',
  }

  it('answers 200 with the pet', async () => {
    const { request } = contractApp({ pets })
    const res = await request('/v1/pets/3', { headers: auth() })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual(pets[2])
    expect(deprecationHeaders(res)).toEqual(expected)
  })

  it.each([
    ['absent', '/v1/pets/99', 404, auth()],
    ['malformed', '/v1/pets/abc', 400, auth()],
    ['unauthenticated', '/v1/pets/1', 401, {}],
  ])('marks errors too (%s)', async (_, url, status, headers) => {
    const { request } = contractApp({ pets })
    const res = await request(url, { headers })
    expect(res.status).toBe(status)
    expect(deprecationHeaders(res)).toEqual(expected)
  })

  it('warns once per client in the log, naming the replacement', async () => {
    const warnings: string[] = []
    const logger = { request() {}, error() {}, warn: (m: string) => warnings.push(m) }
    const { request } = contractApp({ pets, logger })
    await request('/v1/pets/1', { headers: auth() })
    await request('/v1/pets/2', { headers: auth() })
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('getPet')
    expect(warnings[0]).toContain('GET /v1/pets?status=')
  })
})

describe('routing', () => {
  it.each([
    ['PUT', '/v1/pets', 'GET, HEAD, POST, OPTIONS'],
    ['DELETE', '/v1/pets/1', 'GET, HEAD, OPTIONS'],
    ['PATCH', '/v1/pets/1', 'GET, HEAD, OPTIONS'],
  ])('%s %s → 405 with Allow', async (method, url, allow) => {
    const { request } = contractApp()
    const res = await request(url, { method, headers: auth() })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe(allow)
    expect(await res.json()).toMatchObject({ code: 'method_not_allowed', status: 405 })
  })

  it.each(['/v1/nope', '/v2/pets', '/v1/pets/1/extra', '/'])('unknown path %s → 404', async (url) => {
    const { request } = contractApp()
    const res = await request(url, { headers: auth() })
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ code: 'not_found', message: `No route for GET ${url}.`, status: 404 })
  })
})
