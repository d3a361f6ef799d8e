import { describe, expect, it } from 'vitest'
import { fixturePets } from '../../src/generated/contract.js'
import { auth, postJson } from '../helpers/contract.js'
import { useMswMock } from '../helpers/msw.js'

// The contract scenarios of the server's suites, through msw's setupServer: every answer is checked against openapi.yaml.
const { handlers, request } = useMswMock({ apiKeys: ['test-token'] })

describe('petstore-mock/msw in setupServer', () => {
  it('lists the bundled pets, ordered by id', async () => {
    const res = await request('/v1/pets', { headers: auth() })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await res.json()).toEqual(fixturePets)
    expect(await (await request('/v1/pets?status=sold&limit=2', { headers: auth() })).json()).toEqual([
      fixturePets[3],
      fixturePets[6],
    ])
  })

  it('creates a pet, then reads it back (deprecated getPet headers included)', async () => {
    const created = await request('/v1/pets', postJson({ name: 'Rex', categoryId: 2, status: 'pending' }))
    expect(created.status).toBe(201)
    expect(created.headers.get('location')).toBe('/v1/pets/13')
    expect(await created.text()).toBe('{"id":13,"name":"Rex","categoryId":2,"status":"pending"}')
    const read = await request('/v1/pets/13', { headers: auth() })
    expect(read.status).toBe(200)
    expect(await read.text()).toBe('{"id":13,"name":"Rex","categoryId":2,"status":"pending"}')
    expect(read.headers.get('deprecation')).toBe('@0')
    expect(read.headers.get('sunset')).toMatch(/GMT$/)
    expect(read.headers.get('link')).toMatch(/rel="successor-version"/)
    expect(await handlers.pets()).toHaveLength(13)
  })

  it('serves a session by its path prefix, /sessions/<name>/… (issue 28), Location and journal included', async () => {
    const created = await request('/sessions/msw-job/v1/pets', postJson({ name: 'Mw', categoryId: 1 }))
    expect(created.status).toBe(201)
    expect(created.headers.get('location')).toMatch(/^\/sessions\/msw-job\/v1\/pets\/\d+$/)
    expect(created.headers.get('x-mock-session-created')).toBe('true')
    const read = await request(created.headers.get('location')!, { headers: auth() })
    expect(await read.json()).toMatchObject({ name: 'Mw' })
    const journal = await (await request('/sessions/msw-job/__admin/requests')).json()
    expect(journal.requests).toHaveLength(2)
    expect((await request('/__admin/state', { headers: { 'X-Mock-Session': 'msw-job' } })).status).toBe(200)
  })

  it.each([
    ['/v1/pets', postJson({ categoryId: 2 }), 'name is required'],
    ['/v1/pets', postJson({ name: 'Rex', categoryId: 'two' }), 'categoryId must be an integer'],
    ['/v1/pets', postJson('{"name":"a","name":"b","categoryId":1}'), 'not valid JSON'],
    ['/v1/pets?limit=0', { headers: auth() }, 'limit must be an integer between 1 and 100'],
    ['/v1/pets/abc', { headers: auth() }, 'petId must be an integer'],
  ])('400 naming the field: %s', async (path, init, message) => {
    const res = await request(path, init)
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body).toMatchObject({ code: 'bad_request', status: 400 })
    expect(body.message).toContain(message)
    expect(await handlers.pets()).toHaveLength(12)
  })

  it('413 beyond the body limit, 415 without JSON', async () => {
    const big = postJson({ name: 'x'.repeat(1024 * 1024), categoryId: 1 })
    expect((await request('/v1/pets', big)).status).toBe(413)
    const text = { method: 'POST', headers: auth({ 'Content-Type': 'text/plain' }), body: '{}' }
    expect((await request('/v1/pets', text)).status).toBe(415)
  })

  it('401 with WWW-Authenticate, without a token and with a wrong one', async () => {
    const none = await request('/v1/pets')
    expect(none.status).toBe(401)
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="petstore"')
    const wrong = await request('/v1/pets', { headers: auth({}, 'not-the-key') })
    expect(wrong.status).toBe(401)
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer realm="petstore", error="invalid_token"')
  })

  it('404 for an absent pet and an unknown /v1 path; 405 with Allow', async () => {
    const absent = await request('/v1/pets/999', { headers: auth() })
    expect(absent.status).toBe(404)
    expect(await absent.json()).toEqual({ code: 'not_found', message: 'No pet with id 999.', status: 404 })
    expect((await request('/v1/owners', { headers: auth() })).status).toBe(404)
    const wrongMethod = await request('/v1/pets/1', { method: 'DELETE', headers: auth() })
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
  })

  it('forces a 503 with Prefer (Retry-After), and a forced create creates nothing', async () => {
    const forced = await request('/v1/pets', { headers: auth({ Prefer: 'code=503' }) })
    expect(forced.status).toBe(503)
    expect(forced.headers.get('retry-after')).toBe('1')
    expect(await forced.json()).toMatchObject({ code: 'service_unavailable', status: 503 })
    expect((await request('/v1/pets?__code=400', postJson({ name: 'Rex', categoryId: 1 }))).status).toBe(400)
    expect(await handlers.pets()).toHaveLength(12)
  })

  it('applies a fault rule from /__admin/faults exactly `times` times', async () => {
    const rule = { operation: 'listPets', status: 500, times: 2 }
    const created = await request('/__admin/faults', postJson(rule))
    expect(created.status).toBe(201)
    expect(await created.json()).toEqual({ id: 1, ...rule, remaining: 2 })
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(500)
    expect(await handlers.faults()).toEqual([{ id: 1, ...rule, remaining: 1 }])
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(500)
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(200)
    expect(await handlers.faults()).toEqual([])
  })

  it('keeps a session-isolated create in its session', async () => {
    const inA = auth({ 'X-Mock-Session': 'a' })
    const created = await request('/v1/pets', postJson({ name: 'Solo', categoryId: 1 }, { 'X-Mock-Session': 'a' }))
    expect(created.headers.get('location')).toBe('/v1/pets/13')
    expect((await request('/v1/pets/13', { headers: inA })).status).toBe(200)
    expect((await request('/v1/pets/13', { headers: auth() })).status).toBe(404)
    expect(await handlers.pets({ session: 'a' })).toHaveLength(13)
    expect(await handlers.pets()).toHaveLength(12)
    const sessions = await (await request('/__admin/sessions')).json()
    expect(sessions.sessions.map((s: { name: string }) => s.name).sort()).toEqual(['a', 'default'])
  })

  it('journals every request, through /__admin/requests and journal()', async () => {
    await request('/v1/pets?limit=1', { headers: auth() })
    await request('/v1/pets', postJson({ name: 'Rex', categoryId: 2 }))
    await request('/v1/pets/999', { headers: auth() })
    const entries = await handlers.journal()
    expect(entries.map((e) => [e.method, e.path, e.operation, e.status])).toEqual([
      ['GET', '/v1/pets/999', 'getPet', 404],
      ['POST', '/v1/pets', 'createPet', 201],
      ['GET', '/v1/pets', 'listPets', 200],
    ])
    expect(entries[1]).toMatchObject({ body: { name: 'Rex', categoryId: 2 }, authorization: 'Bearer te…' })
    expect(entries[2]!.query).toEqual({ limit: '1' })
    const viaHttp = await (await request('/__admin/requests?operation=createPet')).json()
    expect(viaHttp.requests).toEqual([entries[1]])
    await handlers.clearJournal()
    expect(await handlers.journal()).toEqual([])
  })

  it('turns a connection_reset fault into a network error: fetch rejects with a TypeError', async () => {
    const rule = await handlers.addFault({ operation: 'listPets', fault: 'connection_reset', times: 1 })
    expect(rule).toEqual({ id: 1, operation: 'listPets', fault: 'connection_reset', times: 1, remaining: 1 })
    const failure = await request('/v1/pets', { headers: auth() }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(TypeError)
    expect((await handlers.journal())[0]).toMatchObject({ operation: 'listPets', status: 0 })
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(200)
  })

  it('answers empty_response and malformed_body as the server does', async () => {
    await handlers.addFault({ operation: 'listPets', fault: 'empty_response', times: 1 })
    const empty = await request('/v1/pets', { headers: auth() })
    expect(empty.status).toBe(200)
    expect(await empty.text()).toBe('')
    await handlers.addFault({ operation: 'getPet', fault: 'malformed_body', times: 1 })
    const cut = await fetch('http://petstore.test/v1/pets/1', { headers: auth() })
    expect(cut.status).toBe(200)
    const whole = JSON.stringify(fixturePets[0])
    expect(await cut.text()).toBe(whole.slice(0, Math.floor(whole.length / 2)))
  })

  it('serves the contract at /openapi.yaml and /openapi.json without auth', async () => {
    expect((await request('/openapi.yaml')).status).toBe(200)
    expect((await (await request('/openapi.json')).json()).info.title).toBe('Pet Store')
  })
})
