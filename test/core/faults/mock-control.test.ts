import { describe, expect, it } from 'vitest'
import { delayedAtLeast } from '../../helpers/asked-delay.js'
import { auth, contractApp, postJson } from '../../helpers/contract.js'
import { onePet } from '../../helpers/fixtures.js'

const pets = onePet({ status: 'sold' })
const list = async (request: ReturnType<typeof contractApp>['request']) =>
  (await request('/v1/pets', { headers: auth() })).json()

type Forced = [operation: string, url: string, init: RequestInit, status: number, code: string]

const codes: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  404: 'not_found',
  429: 'too_many_requests',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
}
const create = () => postJson({ name: 'x', categoryId: 1 })
const forcedCase = (operation: string, url: string, init: RequestInit, status: number): Forced => [
  operation,
  url,
  init,
  status,
  codes[status]!,
]
const forced: Forced[] = [
  ...[401, 429, 500, 502, 503, 504].flatMap((status) => [
    forcedCase('listPets', '/v1/pets', { headers: auth() }, status),
    forcedCase('createPet', '/v1/pets', create(), status),
    forcedCase('getPet', '/v1/pets/1', { headers: auth() }, status),
  ]),
  forcedCase('createPet', '/v1/pets', create(), 400),
  forcedCase('getPet', '/v1/pets/1', { headers: auth() }, 404),
]

const withHeader = (init: RequestInit, name: string, value: string): RequestInit => ({
  ...init,
  headers: { ...(init.headers as Record<string, string>), [name]: value },
})

describe('per-request overrides', () => {
  it.each(forced)('%s %s forced with Prefer: code (case %#)', async (_, url, init, status, code) => {
    const { request } = contractApp({ pets })
    const before = await list(request)
    const res = await request(url, withHeader(init, 'Prefer', `code=${status}`))
    expect(res.status).toBe(status)
    expect(await res.json()).toMatchObject({ code, status })
    expect(await list(request)).toEqual(before)
  })

  it.each(forced)('%s %s forced with __code (case %#)', async (_, url, init, status, code) => {
    const { request } = contractApp({ pets })
    const res = await request(`${url}?__code=${status}`, init)
    expect(res.status).toBe(status)
    expect(await res.json()).toMatchObject({ code, status })
  })

  it('a forced error carries what a real one would: WWW-Authenticate, Retry-After, deprecation headers', async () => {
    const { request } = contractApp({ pets })
    const unauthorized = await request('/v1/pets', { headers: auth({ Prefer: 'code=401' }) })
    expect(unauthorized.headers.get('www-authenticate')).toBe('Bearer realm="petstore"')
    const busy = await request('/v1/pets', { headers: auth({ Prefer: 'code=503' }) })
    expect(busy.headers.get('retry-after')).toBe('1')
    const notFound = await request('/v1/pets/1', { headers: auth({ Prefer: 'code=404' }) })
    expect(await notFound.json()).toEqual({ code: 'not_found', message: 'No pet with id 1.', status: 404 })
    expect(notFound.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT')
  })

  it('applies after authentication (issue 39): code=401 with a valid key; none without one', async () => {
    const { request } = contractApp({ pets, apiKeys: ['k'] })
    expect((await request('/v1/pets', { headers: auth({ Prefer: 'code=401' }, 'k') })).status).toBe(401)
    const refused = await request('/v1/pets?__code=503&__delay=5000', { headers: { Prefer: 'code=503, delay=5000' } })
    expect(refused.status).toBe(401)
    expect(await refused.json()).toMatchObject({ code: 'unauthorized' })
  })

  it('a success status means normal processing', async () => {
    const { request } = contractApp({ pets })
    const created = await request('/v1/pets', postJson({ name: 'x', categoryId: 1 }, { Prefer: 'code=201' }))
    expect(created.status).toBe(201)
    expect((await request('/v1/pets/2', { headers: auth({ Prefer: 'code=200' }) })).status).toBe(200)
    expect((await request('/v1/pets', { headers: { Prefer: 'code=200' } })).status).toBe(401)
  })

  it.each([
    ['/v1/pets', 'code=404', 'code must be one of 200, 401, 429, 500, 502, 503, 504 for listPets (got "404").'],
    ['/v1/pets', 'code=200x', 'code must be one of 200, 401, 429, 500, 502, 503, 504 for listPets (got "200x").'],
    [
      '/v1/pets/1',
      'code=400',
      'code must be one of 200, 401, 404, 410, 429, 500, 502, 503, 504 for getPet (got "400").',
    ],
    ['/v1/pets', 'delay=-1', 'delay must be an integer number of milliseconds from 0 to 60000 (got "-1").'],
    ['/v1/pets', 'delay=60001', 'delay must be an integer number of milliseconds from 0 to 60000 (got "60001").'],
    ['/v1/pets', 'delay=1.5', 'delay must be an integer number of milliseconds from 0 to 60000 (got "1.5").'],
  ])('%s with Prefer: %s → 400 invalid_mock_control', async (url, prefer, message) => {
    const { request } = contractApp({ pets })
    const res = await request(url, { headers: auth({ Prefer: prefer }) })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ code: 'invalid_mock_control', message, status: 400 })
  })

  it('createPet lists its own statuses', async () => {
    const { request } = contractApp({ pets })
    const res = await request('/v1/pets?__code=404', postJson({ name: 'x', categoryId: 1 }))
    expect((await res.json()).message).toBe(
      'code must be one of 201, 400, 401, 429, 500, 502, 503, 504 for createPet (got "404").',
    )
  })

  it('delays the answer, combined with a code; unknown preferences are ignored', async () => {
    const { request } = contractApp({ pets })
    const res = await delayedAtLeast(115, () =>
      request('/v1/pets/1', { headers: auth({ Prefer: 'respond-async, code=404, delay=120, wait=5' }) }),
    )
    expect(res.status).toBe(404)
  })

  it('__delay alone delays a normal answer; the query wins over the header', async () => {
    const { request } = contractApp({ pets })
    const res = await delayedAtLeast(75, () =>
      request('/v1/pets?__delay=80&__code=503', { headers: auth({ Prefer: 'code=200, delay=0' }) }),
    )
    expect(res.status).toBe(503)
  })
})
