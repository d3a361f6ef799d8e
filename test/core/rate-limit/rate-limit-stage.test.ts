import { describe, expect, it, vi } from 'vitest'
import { adminJson, inSession } from '../../helpers/admin.js'
import { auth, contractApp, postJson } from '../../helpers/contract.js'
import { fakeDateAt } from '../../helpers/fake-date.js'
import { onePet } from '../../helpers/fixtures.js'

const pets = onePet({ status: 'sold' })
const real = Date.parse('2026-06-01T12:00:00Z')
const t0 = Date.parse('2030-01-01T00:00:00Z')
const iso = (ms: number) => new Date(ms).toISOString()

type Request = ReturnType<typeof contractApp>['request']
const limitHeaders = (res: Response) => ({
  policy: res.headers.get('ratelimit-policy'),
  limit: res.headers.get('ratelimit'),
  retryAfter: res.headers.get('retry-after'),
})
const freezeAt = (request: Request, ms: number, session?: string) =>
  request('/__admin/clock', adminJson({ now: iso(ms), frozen: true }, 'PUT', session))

fakeDateAt(real)

describe('rate limits on the mock clock', () => {
  it('n requests per window, then 429 with exact headers; moving the clock forward frees the window', async () => {
    const { request } = contractApp({ pets, rateLimit: { limit: 2, windowSeconds: 60 } })
    const policy = '"default";q=2;w=60'
    const steps: [seconds: number, status: number, limit: string, retryAfter: string | null][] = [
      [0, 200, '"default";r=1;t=60', null],
      [10, 200, '"default";r=0;t=50', null],
      [10, 429, '"default";r=0;t=50', '50'],
      [30, 429, '"default";r=0;t=30', '30'],
      [59.5, 429, '"default";r=0;t=1', '1'],
      [60, 200, '"default";r=1;t=60', null],
    ]
    for (const [seconds, status, limit, retryAfter] of steps) {
      await freezeAt(request, t0 + seconds * 1000)
      const res = await request('/v1/pets', { headers: auth() })
      expect([seconds, res.status, limitHeaders(res)]).toEqual([seconds, status, { policy, limit, retryAfter }])
      if (status === 429) {
        expect(await res.json()).toEqual({
          code: 'too_many_requests',
          message: `Rate limit of 2/m exceeded for this API key; retry in ${retryAfter} s.`,
          status: 429,
        })
      }
    }
  })

  it('an advancing clock frees the window as real time passes', async () => {
    const { request } = contractApp({ pets, rateLimit: { limit: 1, windowSeconds: 10 }, clock: iso(t0) })
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(200)
    vi.setSystemTime(real + 9999)
    expect(limitHeaders(await request('/v1/pets', { headers: auth() }))).toMatchObject({ retryAfter: '1' })
    vi.setSystemTime(real + 10_000)
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(200)
  })

  it('each API key has its own window, across all operations', async () => {
    const { request } = contractApp({ pets, apiKeys: ['k1', 'k2'], rateLimit: { limit: 3, windowSeconds: 60 } })
    const k1 = auth({}, 'k1')
    expect((await request('/v1/pets', { headers: k1 })).status).toBe(200)
    expect((await request('/v1/pets/1', { headers: k1 })).status).toBe(200)
    expect((await request('/v1/pets', postJson({ name: 'b', categoryId: 1 }, k1))).status).toBe(201)
    expect((await request('/v1/pets/1', { headers: k1 })).status).toBe(429)
    expect((await request('/v1/pets/1', { headers: auth({}, 'k2') })).status).toBe(200)
  })

  it('each token has its own window when any token is accepted', async () => {
    const { request } = contractApp({ pets, rateLimit: { limit: 1, windowSeconds: 60 } })
    expect((await request('/v1/pets', { headers: auth({}, 'token-a') })).status).toBe(200)
    expect((await request('/v1/pets', { headers: auth({}, 'token-a') })).status).toBe(429)
    expect((await request('/v1/pets', { headers: auth({}, 'token-b') })).status).toBe(200)
  })

  it('applies after authentication (a 401 counts nothing) and before validation (a 400 counts)', async () => {
    const { request } = contractApp({ pets, apiKeys: ['k'], rateLimit: { limit: 1, windowSeconds: 60 } })
    const unauthorized = await request('/v1/pets', { headers: auth({}, 'wrong') })
    expect(unauthorized.status).toBe(401)
    // Authentication first (issue 39): the 401 is answered before any stage of the session, the policy's too.
    expect(limitHeaders(unauthorized)).toEqual({ policy: null, limit: null, retryAfter: null })
    expect((await request('/v1/pets?limit=0', { headers: auth({}, 'k') })).status).toBe(400)
    expect((await request('/v1/pets?limit=0', { headers: auth({}, 'k') })).status).toBe(429)
  })

  it('a 429 changes nothing: no pet, no id used', async () => {
    const { request } = contractApp({ pets, rateLimit: { limit: 1, windowSeconds: 60 } })
    await freezeAt(request, t0)
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(200)
    const refused = await request('/v1/pets', postJson({ name: 'b', categoryId: 1 }))
    expect(refused.status).toBe(429)
    expect(await (await request('/__admin/state')).json()).toEqual({ pets })
    await freezeAt(request, t0 + 60_000)
    expect((await request('/v1/pets', postJson({ name: 'b', categoryId: 1 }))).headers.get('location')).toBe(
      '/v1/pets/2',
    )
  })

  it('every /v1 answer carries RateLimit-Policy while a limit is set; nothing without one', async () => {
    const limited = contractApp({ pets, rateLimit: { limit: 5, windowSeconds: 3600 } })
    const open = contractApp({ pets })
    const requests: [string, RequestInit][] = [
      ['/v1/pets', { headers: auth() }],
      ['/v1/pets', { headers: auth({ Prefer: 'code=503' }) }],
      ['/v1/pets/99', { headers: auth() }],
      ['/v1/nope', { headers: auth() }],
      ['/v1/pets', { method: 'DELETE', headers: auth() }],
    ]
    for (const [url, init] of requests) {
      expect(limitHeaders(await limited.request(url, init)).policy).toBe('"default";q=5;w=3600')
      expect(limitHeaders(await open.request(url, init))).toMatchObject({ policy: null, limit: null })
    }
  })

  it('after the sunset a getPet still counts, and the limit answers first', async () => {
    const { request } = contractApp({ pets, rateLimit: { limit: 1, windowSeconds: 60 } })
    await freezeAt(request, Date.parse('2030-12-05T00:00:00Z'))
    expect((await request('/v1/pets/1', { headers: auth() })).status).toBe(410)
    expect((await request('/v1/pets/1', { headers: auth() })).status).toBe(429)
  })

  it('tracks at most 1000 keys per session', async () => {
    const { app } = contractApp({ pets, rateLimit: { limit: 1, windowSeconds: 60 } })
    for (let i = 0; i <= 1000; i++) await app.request('/v1/pets', { headers: auth({}, `token-${i}`) })
    expect(await (await app.request('/__admin/rate-limit')).json()).toMatchObject({ keys: 1000 })
  })
})

describe('GET, PUT and DELETE /__admin/rate-limit', () => {
  it('is off by default; PUT sets it at once; DELETE turns it off', async () => {
    const { request } = contractApp({ pets })
    expect(await (await request('/__admin/rate-limit')).json()).toEqual({ rate: null })
    const put = await request('/__admin/rate-limit', adminJson({ rate: '1/30s' }))
    expect(put.status).toBe(200)
    expect(await put.json()).toEqual({ rate: '1/30s', limit: 1, windowSeconds: 30, keys: 0 })
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(200)
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(429)
    expect(await (await request('/__admin/rate-limit')).json()).toEqual({
      rate: '1/30s',
      limit: 1,
      windowSeconds: 30,
      keys: 1,
    })
    const off = await request('/__admin/rate-limit', { method: 'DELETE' })
    expect(await off.json()).toEqual({ rate: null })
    const res = await request('/v1/pets', { headers: auth() })
    expect([res.status, limitHeaders(res).policy]).toEqual([200, null])
  })

  it('a new PUT starts every window afresh', async () => {
    const { request } = contractApp({ pets, rateLimit: { limit: 1, windowSeconds: 60 } })
    await request('/v1/pets', { headers: auth() })
    await request('/__admin/rate-limit', adminJson({ rate: '2/m' }))
    expect(limitHeaders(await request('/v1/pets', { headers: auth() })).limit).toBe('"default";r=1;t=60')
  })

  it('per session; reset restores the start-up limit (--rate-limit) with fresh windows', async () => {
    const { request } = contractApp({ pets, rateLimit: { limit: 1, windowSeconds: 60 } })
    const headers = auth(inSession('job'))
    await request('/__admin/rate-limit', { method: 'DELETE', headers: inSession('job') })
    expect((await request('/v1/pets', { headers })).status).toBe(200)
    expect((await request('/v1/pets', { headers })).status).toBe(200)
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(200)
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(429)
    await request('/__admin/reset', { method: 'POST', headers: inSession('job') })
    expect((await request('/v1/pets', { headers })).status).toBe(200)
    expect((await request('/v1/pets', { headers })).status).toBe(429)
  })

  const expectation =
    'rate must be <n>/<window>: n from 1 to 1000000, the window s, m or h with an optional count (at most 24h), e.g. 100/m or 10/30s'
  it.each([
    [{ rate: '0/m' }, `${expectation} (got "0/m").`],
    [{ rate: '100/d' }, `${expectation} (got "100/d").`],
    [{ rate: '1/25h' }, `${expectation} (got "1/25h").`],
    [{ rate: 100 }, `${expectation} (got 100).`],
    [{}, `${expectation} (got null).`],
    [{ rate: '1/m', limit: 5 }, 'limit is not a known field; expected { "rate": "<n>/<window>" }.'],
    [['1/m'], 'The body must be { "rate": "<n>/<window>" }.'],
  ])('PUT %j → 400 naming the field; nothing changes', async (body, message) => {
    const { request } = contractApp({ pets })
    const res = await request('/__admin/rate-limit', adminJson(body))
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ code: 'bad_request', message, status: 400 })
    expect(await (await request('/__admin/rate-limit')).json()).toEqual({ rate: null })
  })

  it('refuses an invalid start-up policy', () => {
    expect(() => contractApp({ rateLimit: { limit: 0, windowSeconds: 60 } })).toThrow(
      'rateLimit.limit must be an integer from 1 to 1000000 (got 0)',
    )
  })
})
