import { describe, expect, it } from 'vitest'
import { keepBody, maxBodyChars, utf8Length } from '../../../src/core/journal/journal.js'
import { auth, contractApp, postJson } from '../../helpers/contract.js'

const pets = [
  { id: 1, name: 'a', categoryId: 1, status: 'sold' as const },
  { id: 2, name: 'b', categoryId: 2 },
]
const admin = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
})

const journal = async (request: ReturnType<typeof contractApp>['request'], query = '') =>
  (await (await request(`/__admin/requests${query}`)).json()).requests

describe('the journal keeps the answer', () => {
  it('records the request headers (Authorization redacted) and the response: status, headers, parsed JSON body', async () => {
    const { request } = contractApp({ pets })
    await request('/v1/pets', postJson({ name: 'c', categoryId: 3 }, { 'X-Trace': 't1' }))
    const [created] = await journal(request)
    expect(created.headers).toEqual({
      authorization: 'Bearer te…',
      'content-type': 'application/json',
      'x-trace': 't1',
    })
    expect(created.authorization).toBe('Bearer te…')
    expect(created.response).toEqual({
      status: 201,
      headers: {
        'content-security-policy': "sandbox; default-src 'none'",
        'content-type': 'application/json',
        location: '/v1/pets/3',
        'x-content-type-options': 'nosniff',
      },
      body: { id: 3, name: 'c', categoryId: 3 },
    })
    expect(JSON.stringify(created)).not.toContain('test-token')
  })

  it('records error answers, the deprecation headers, and the Error body', async () => {
    const { request } = contractApp({ pets })
    await request('/v1/pets/99', { headers: auth() })
    const [missing] = await journal(request)
    expect(missing.response.status).toBe(404)
    expect(missing.response.headers).toMatchObject({ 'content-type': 'application/json', deprecation: '@0' })
    expect(missing.response.body).toEqual({ code: 'not_found', message: 'No pet with id 99.', status: 404 })
  })

  it('cuts a long answer at 4096 characters of text and says so', async () => {
    const many = Array.from({ length: 100 }, (_, i) => ({
      id: i + 1,
      name: `pet-${'x'.repeat(60)}-${i}`,
      categoryId: 1,
    }))
    const { app, request } = contractApp({ pets: many })
    const sent = await (await app.request('/v1/pets?limit=100', { headers: auth() })).text()
    const [listed] = await journal(request)
    expect(sent.length).toBeGreaterThan(maxBodyChars)
    expect(listed.response.body).toBe(sent.slice(0, maxBodyChars))
    expect(listed.response.bodyTruncated).toBe(true)
  })

  it.each([
    ['HEAD', { method: 'HEAD', headers: auth() }, '/v1/pets/1'],
    ['an empty_response fault', { headers: auth() }, '/v1/pets'],
  ])('keeps no response body for %s', async (name, init, path) => {
    const { app, request } = contractApp({ pets })
    if (name.includes('empty')) await request('/__admin/faults', admin({ fault: 'empty_response', times: 1 }))
    expect((await app.request(path, init)).status).toBe(200)
    const [entry] = await journal(request)
    expect(entry.response.status).toBe(200)
    expect(entry.response).not.toHaveProperty('body')
  })

  it('keeps what malformed_body really sent (text), and no response at all for connection_reset', async () => {
    const { app, request } = contractApp({ pets })
    await request('/__admin/faults', admin({ operation: 'getPet', fault: 'malformed_body', times: 1 }))
    await request('/__admin/faults', admin({ operation: 'listPets', fault: 'connection_reset', times: 1 }))
    const cut = await (await app.request('/v1/pets/1', { headers: auth() })).text()
    await expect(app.request('/v1/pets', { headers: auth() })).rejects.toThrow('connection_reset')
    const [reset, malformed] = await journal(request)
    expect(malformed.response.body).toBe(cut)
    expect(reset.status).toBe(0)
    expect(reset).not.toHaveProperty('response')
  })

  it('shows a request body JavaScript cannot hold exactly as the text sent, never rounded', async () => {
    const { request } = contractApp({ pets })
    const text = '{"name":"n","categoryId":9007199254740993}'
    await request('/v1/pets', postJson(text))
    const [refused] = await journal(request)
    expect(refused.status).toBe(400)
    expect(refused.body).toBe(text)
  })
})

describe('keepBody and utf8Length', () => {
  it('keeps short texts as they are and cuts long ones, with the size sent in bytes', () => {
    expect(keepBody('{"a":1}', true)).toEqual({ text: '{"a":1}', json: true })
    const long = 'é'.repeat(maxBodyChars + 10)
    expect(keepBody(long, true)).toEqual({
      text: 'é'.repeat(maxBodyChars),
      json: false,
      truncatedFrom: long.length * 2,
    })
  })

  it.each([
    ['', 0],
    ['abc', 3],
    ['é', 2],
    ['€', 3],
    ['😀', 4],
    ['\ud800', 3],
    ['\ud800x', 4],
    ['\udc00', 3],
  ])('utf8Length(%j) = %d, as TextEncoder counts', (text, bytes) => {
    expect(utf8Length(text)).toBe(bytes)
    expect(new TextEncoder().encode(text).length).toBe(bytes)
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
