import { describe, expect, it } from 'vitest'
import { auth, contractApp, postJson } from '../../helpers/contract.js'
import { bearer } from '../../helpers/auth.js'

const origin = 'http://localhost:5173'
const cors = (res: Response) => ({
  origin: res.headers.get('access-control-allow-origin'),
  expose: res.headers.get('access-control-expose-headers'),
})

describe('CORS', () => {
  it.each([
    ['a success', '/v1/pets', { headers: { ...bearer(), Origin: origin } }, 200],
    ['a 401', '/v1/pets', { headers: { Origin: origin } }, 401],
    ['a 400', '/v1/pets?limit=0', { headers: { ...bearer(), Origin: origin } }, 400],
    ['an injected fault', '/v1/pets', { headers: { ...bearer(), Origin: origin, Prefer: 'code=503' } }, 503],
    ['a 404', '/v1/nope', { headers: { Origin: origin } }, 404],
    ['a 405', '/v1/pets/1', { method: 'DELETE', headers: { Origin: origin } }, 405],
    ['the served document', '/openapi.json', { headers: { Origin: origin } }, 200],
    ['a bad session', '/v1/pets', { headers: auth({ Origin: origin, 'X-Mock-Session': '!' }) }, 400],
  ])('%s carries the headers', async (_, url, init, status) => {
    const { request } = contractApp()
    const res = await request(url, init)
    expect(res.status).toBe(status)
    expect(cors(res)).toEqual({
      origin,
      expose:
        'Location,Deprecation,Sunset,Link,WWW-Authenticate,Retry-After,Allow,RateLimit-Policy,RateLimit,X-Mock-Session-Created',
    })
    expect(res.headers.get('vary')).toContain('Origin')
  })

  it('a request without Origin (not a browser) gets no CORS headers', async () => {
    const { request } = contractApp()
    expect(cors(await request('/openapi.json'))).toEqual({ origin: null, expose: null })
  })

  it('a create exposes Location', async () => {
    const { request } = contractApp()
    const res = await request('/v1/pets', postJson({ name: 'x', categoryId: 1 }, { Origin: origin }))
    expect(res.status).toBe(201)
    expect(cors(res).origin).toBe(origin)
  })

  it.each([
    ['/v1/pets', 'GET,HEAD,POST'],
    ['/v1/pets/7', 'GET,HEAD'],
  ])('preflight of %s is 204 without auth, allowing its methods', async (url, methods) => {
    const { request } = contractApp({ apiKeys: ['k'] })
    const res = await request(url, {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization',
      },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe(origin)
    expect(res.headers.get('access-control-allow-methods')).toBe(methods)
    expect(res.headers.get('access-control-allow-headers')).toBe('Authorization,Content-Type,Prefer,X-Mock-Session')
  })

  it('a configured origin list allows only those origins', async () => {
    const { request } = contractApp({ cors: ['http://ok.test'] })
    expect(cors(await request('/openapi.json', { headers: { Origin: 'http://ok.test' } })).origin).toBe(
      'http://ok.test',
    )
    expect(cors(await request('/openapi.json', { headers: { Origin: 'http://evil.test' } })).origin).toBeNull()
  })

  it('--cors off sends no CORS headers and leaves OPTIONS to routing (204 with Allow, no CORS)', async () => {
    const { request } = contractApp({ cors: false })
    const res = await request('/openapi.json', { headers: { Origin: origin } })
    expect(cors(res)).toEqual({ origin: null, expose: null })
    const options = await request('/v1/pets', { method: 'OPTIONS', headers: { Origin: origin } })
    expect(options.status).toBe(204)
    // Besides the request's id, which every /v1 answer carries.
    expect([...options.headers].filter(([name]) => name !== 'x-request-id')).toEqual([
      ['allow', 'GET, HEAD, POST, OPTIONS'],
      ['content-security-policy', "sandbox; default-src 'none'"],
      ['x-content-type-options', 'nosniff'],
    ])
  })
})
