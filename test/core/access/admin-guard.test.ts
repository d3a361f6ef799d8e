import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { type AppOptions, createApp } from '../../../src/index.js'
import { panelSecurityHeaders } from '../../../src/core/access/admin-guard.js'
import { contractApp } from '../../helpers/contract.js'
import { bearer } from '../../helpers/auth.js'

const evil = 'http://evil.example'
const qa = 'http://qa.example'
const dev = 'http://localhost:5173'

/** One browser situation: where the request goes, what the browser says about the page, how the server runs. */
interface Case {
  /** scheme://host[:port] the request is addressed to: the Host the server sees. */
  base: string
  origin?: string
  site?: 'same-origin' | 'same-site' | 'cross-site' | 'none'
  /** allowedHosts stands for the listen address: [] on loopback (the default), 'any' elsewhere. */
  options?: AppOptions
  allowed: boolean
}

const local = 'http://localhost:4010'

const cases: [string, Case][] = [
  // Host × listen address
  ['localhost, loopback', { base: 'http://localhost', allowed: true }],
  ['127.0.0.1, loopback', { base: 'http://127.0.0.1:4010', allowed: true }],
  ['[::1], loopback', { base: 'http://[::1]:4010', allowed: true }],
  ['LOCALHOST (case), loopback', { base: 'http://LOCALHOST:4010', allowed: true }],
  ['localhost. (trailing dot), loopback', { base: 'http://localhost.:4010', allowed: false }],
  ['a foreign name (DNS rebinding), loopback', { base: 'http://evil.example:4010', allowed: false }],
  [
    'a rebound page of its "own" origin, loopback',
    { base: 'http://evil.example:4010', origin: 'http://evil.example:4010', site: 'same-origin', allowed: false },
  ],
  [
    'a rebound page of its "own" origin, not loopback (check off)',
    {
      base: 'http://evil.example:4010',
      origin: 'http://evil.example:4010',
      site: 'same-origin',
      options: { allowedHosts: 'any' },
      allowed: true,
    },
  ],
  ['a service name, loopback', { base: 'http://petstore:4010', allowed: false }],
  ['a service name, not loopback', { base: 'http://petstore:4010', options: { allowedHosts: 'any' }, allowed: true }],
  ['an allowed host', { base: 'http://petstore:4010', options: { allowedHosts: ['petstore'] }, allowed: true }],
  [
    'an allowed host, any case',
    { base: 'http://petstore:4010', options: { allowedHosts: ['PetStore'] }, allowed: true },
  ],
  [
    'loopback still, with allowed hosts',
    { base: 'http://127.0.0.1:4010', options: { allowedHosts: ['petstore'] }, allowed: true },
  ],
  ['a host not allowed', { base: 'http://evil.example', options: { allowedHosts: ['petstore'] }, allowed: false }],
  [
    'a subdomain of .mock.test',
    { base: 'http://api.mock.test', options: { allowedHosts: ['.mock.test'] }, allowed: true },
  ],
  ['the domain of .mock.test', { base: 'http://mock.test', options: { allowedHosts: ['.mock.test'] }, allowed: true }],
  [
    'a look-alike of .mock.test',
    { base: 'http://evilmock.test', options: { allowedHosts: ['.mock.test'] }, allowed: false },
  ],
  // Origin × Sec-Fetch-Site
  ['no browser headers (curl)', { base: local, allowed: true }],
  ['a typed URL or bookmark (site none)', { base: local, site: 'none', allowed: true }],
  ['its own page, no Origin', { base: local, site: 'same-origin', allowed: true }],
  ['its own page with Origin', { base: local, origin: local, site: 'same-origin', allowed: true }],
  ['its own page, old browser', { base: local, origin: local, allowed: true }],
  ['a foreign page', { base: local, origin: evil, site: 'cross-site', allowed: false }],
  ['a foreign page, old browser', { base: local, origin: evil, allowed: false }],
  ['a cross-site navigation or no-cors GET', { base: local, site: 'cross-site', allowed: false }],
  ['another port of localhost', { base: local, origin: dev, site: 'same-site', allowed: false }],
  ['another port of localhost, old browser', { base: local, origin: dev, allowed: false }],
  ['same-site without Origin', { base: local, site: 'same-site', allowed: false }],
  ['an opaque origin (sandbox, file:)', { base: local, origin: 'null', site: 'cross-site', allowed: false }],
  ['the same host over https', { base: local, origin: 'https://localhost:4010', allowed: false }],
  ['own Origin but cross-site', { base: local, origin: local, site: 'cross-site', allowed: false }],
  ['127.0.0.1 page to localhost', { base: local, origin: 'http://127.0.0.1:4010', site: 'cross-site', allowed: false }],
  // options
  [
    'an allowed admin origin',
    { base: local, origin: qa, site: 'cross-site', options: { adminCorsOrigins: [qa] }, allowed: true },
  ],
  [
    'an allowed admin origin, old browser',
    { base: local, origin: qa, options: { adminCorsOrigins: [qa] }, allowed: true },
  ],
  ['an admin origin not configured', { base: local, origin: qa, site: 'cross-site', allowed: false }],
  [
    'another port, allowed',
    { base: local, origin: dev, site: 'same-site', options: { adminCorsOrigins: [dev] }, allowed: true },
  ],
  [
    'a foreign page, other origins allowed',
    { base: local, origin: evil, site: 'cross-site', options: { adminCorsOrigins: [qa] }, allowed: false },
  ],
  [
    'an allowed origin, foreign Host',
    {
      base: 'http://evil.example:4010',
      origin: qa,
      site: 'cross-site',
      options: { adminCorsOrigins: [qa] },
      allowed: false,
    },
  ],
  [
    'a foreign page, /v1 CORS off',
    { base: local, origin: evil, site: 'cross-site', options: { cors: false }, allowed: false },
  ],
  [
    'a foreign page, /v1 CORS for it',
    { base: local, origin: evil, site: 'cross-site', options: { cors: [evil] }, allowed: false },
  ],
  [
    'an allowed origin, /v1 CORS off',
    { base: local, origin: qa, site: 'cross-site', options: { adminCorsOrigins: [qa], cors: false }, allowed: true },
  ],
]

const headersOf = ({ origin, site }: Case): Record<string, string> => ({
  ...(origin !== undefined && { Origin: origin }),
  ...(site !== undefined && { 'Sec-Fetch-Site': site }),
  // A refused request must not even create the session it names.
  'X-Mock-Session': 'drive-by',
})

const corsHeaders = (res: Response): string[] =>
  [...res.headers.keys()].filter((name) => name.startsWith('access-control-'))

/** The world a clean request (no browser headers, loopback Host) sees. */
const snapshot = async (request: ReturnType<typeof contractApp>['request']) => {
  const of = async (url: string) =>
    (await request(url, { headers: { 'X-Mock-Session': 'drive-by' } })).json() as Promise<unknown>
  const sessions = await (await request('/__admin/sessions')).json()
  return { sessions, state: await of('/__admin/state'), faults: await of('/__admin/faults') }
}

const calls = [
  ['POST', '/__admin/reset', undefined, 204],
  ['PUT', '/__admin/state', { pets: [] }, 204],
  ['POST', '/__admin/faults', { operation: 'listPets', status: 503 }, 201],
  ['GET', '/__admin/requests', undefined, 200],
  ['GET', '/__admin/state', undefined, 200],
] as const

describe('the admin guard', () => {
  it.each(cases)('%s', async (_, c) => {
    const { request } = contractApp(c.options)
    const before = await (await request('/__admin/sessions')).json()
    for (const [method, path, body, status] of calls) {
      const res = await request(`${c.base}${path}`, {
        method,
        headers: { ...headersOf(c), ...(body && { 'Content-Type': 'application/json' }) },
        ...(body && { body: JSON.stringify(body) }),
      })
      const where = `${method} ${path}`
      if (!c.allowed) {
        expect(res.status, where).toBe(403)
        expect(await res.json(), where).toEqual({ code: 'forbidden', status: 403, message: expect.any(String) })
        expect(corsHeaders(res), where).toEqual([])
        continue
      }
      expect(res.status, where).toBe(status)
      const adminOrigin = c.origin !== undefined && c.options?.adminCorsOrigins?.includes(c.origin)
      expect(res.headers.get('access-control-allow-origin'), where).toBe(adminOrigin ? c.origin : null)
    }
    if (c.allowed) {
      // The writes took effect: the guard let them through to the session they named.
      expect(await snapshot(request)).toMatchObject({
        state: { pets: [] },
        faults: { faults: [{ operation: 'listPets', status: 503 }] },
      })
    } else {
      // Nothing changed: no session was created, the default one is as it started.
      expect(await (await request('/__admin/sessions')).json()).toEqual(before)
      const { request: pristine } = contractApp()
      expect(await snapshot(request)).toEqual(await snapshot(pristine))
    }
  })

  it.each(cases.filter(([, c]) => c.origin !== undefined && c.origin !== c.base))('preflight: %s', async (_, c) => {
    const { request } = contractApp(c.options)
    const res = await request(`${c.base}/__admin/state`, {
      method: 'OPTIONS',
      headers: {
        ...headersOf(c),
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': 'content-type',
      },
    })
    if (!c.allowed) {
      expect(res.status).toBe(403)
      expect(await res.json()).toMatchObject({ code: 'forbidden', status: 403 })
      expect(corsHeaders(res)).toEqual([])
      return
    }
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe(c.origin)
    expect(res.headers.get('access-control-allow-methods')).toBe('GET,HEAD,PUT')
    expect(res.headers.get('access-control-allow-headers')).toBe('Authorization,Content-Type,Prefer,X-Mock-Session')
  })

  it('says why, naming the header and the option', async () => {
    const { request } = contractApp()
    const message = async (url: string, headers: Record<string, string> = {}) =>
      ((await (await request(url, { headers })).json()) as { message: string }).message
    expect(await message('http://evil.example:4010/__admin/state')).toBe(
      'Host "evil.example:4010" is not allowed on /__admin (DNS-rebinding protection); use localhost or 127.0.0.1, or allow the name with --allowed-hosts.',
    )
    expect(await message('/__admin/state', { 'Sec-Fetch-Site': 'cross-site' })).toBe(
      'Requests to /__admin from pages of another origin are refused (Sec-Fetch-Site: cross-site); allow an origin with --admin-cors-origin.',
    )
    expect(await message('/__admin/state', { Origin: evil })).toBe(
      'Requests to /__admin from pages of another origin are refused (Origin: "http://evil.example"); allow an origin with --admin-cors-origin.',
    )
    expect((await message('/__admin/state', { Origin: `http://${'x'.repeat(5000)}` })).length).toBeLessThan(250)
  })

  it('comes before the admin token: a foreign page gets 403 even with the token', async () => {
    const { request } = contractApp({ adminToken: 'adm', adminCorsOrigins: [qa] })
    const token = bearer('adm')
    expect((await request('/__admin/faults', { headers: { ...token, Origin: evil } })).status).toBe(403)
    expect((await request('/__admin/faults', { headers: { Origin: qa } })).status).toBe(401)
    const allowed = await request('/__admin/faults', { headers: { ...token, Origin: qa } })
    expect(allowed.status).toBe(200)
    expect(allowed.headers.get('access-control-allow-origin')).toBe(qa)
    expect(allowed.headers.get('vary')).toContain('Origin')
  })

  it('leaves health to probes of any Host, but not to foreign pages', async () => {
    const { request } = contractApp()
    expect((await request('http://petstore:4010/__admin/health')).status).toBe(200)
    expect((await request('http://10.1.2.3:4010/__admin/health')).status).toBe(200)
    expect((await request('/__admin/health', { headers: { Origin: evil } })).status).toBe(403)
    expect((await request('/__admin/health', { headers: { 'Sec-Fetch-Site': 'cross-site' } })).status).toBe(403)
  })

  it.each(['/__admin', '/__admin/', '/__admin/nope', '/%5F%5Fadmin/state', '/__admin//state'])(
    'covers %s, routed or not',
    async (path) => {
      const { request } = contractApp()
      expect((await request(path, { headers: { Origin: evil } })).status).toBe(403)
      expect((await request(`http://evil.example${path}`)).status).toBe(403)
      expect((await request(path)).status).not.toBe(403)
    },
  )

  it('covers every /__admin route the app has, those added later included', async () => {
    const { app, request } = contractApp()
    const routes = app.routes.filter((r) => r.method !== 'ALL' && /^\/__admin(\/|$)/.test(r.path))
    expect(routes.length).toBeGreaterThanOrEqual(14)
    for (const { method, path } of routes) {
      const url = path.replace(/:[^/]+/g, 'x')
      const where = `${method} ${url}`
      for (const headers of [{ Origin: evil }, { 'Sec-Fetch-Site': 'cross-site' }, { Origin: dev }]) {
        const res = await request(url, { method, headers })
        expect(res.status, `${where} ${JSON.stringify(headers)}`).toBe(403)
        expect(corsHeaders(res), where).toEqual([])
      }
      const preflight = await request(url, {
        method: 'OPTIONS',
        headers: { Origin: evil, 'Access-Control-Request-Method': method },
      })
      expect(preflight.status, `preflight ${where}`).toBe(403)
      expect(corsHeaders(preflight), where).toEqual([])
      // Health and its probes answer any Host: the kubelet reaches them by the pod's IP address.
      if (!url.startsWith('/__admin/health'))
        expect((await request(`http://evil.example${url}`, { method })).status).toBe(403)
    }
  })

  it('leaves /v1 and the served document as open as before', async () => {
    const { request } = contractApp()
    const browser = { Origin: evil, 'Sec-Fetch-Site': 'cross-site', ...bearer() }
    for (const url of ['http://evil.example:4010/v1/pets', '/v1/pets', '/openapi.json']) {
      const res = await request(url, { headers: browser })
      expect(res.status, url).toBe(200)
      expect(res.headers.get('access-control-allow-origin'), url).toBe(evil)
    }
    const preflight = await request('/v1/pets', {
      method: 'OPTIONS',
      headers: { Origin: evil, 'Sec-Fetch-Site': 'cross-site', 'Access-Control-Request-Method': 'POST' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe(evil)
  })
})

describe('panelSecurityHeaders', () => {
  const page = (directives?: string) => {
    const app = new Hono()
    app.get('/', panelSecurityHeaders(directives), (c) => c.html('<!doctype html><title>panel</title>'))
    return app.request('/')
  }

  it('sets CSP, nosniff and no-referrer on the page', async () => {
    const res = await page()
    expect(res.headers.get('content-security-policy')).toBe("default-src 'self'; frame-ancestors 'none'")
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('referrer-policy')).toBe('no-referrer')
  })

  it('appends what the page needs', async () => {
    expect((await page("img-src 'self' data:")).headers.get('content-security-policy')).toBe(
      "default-src 'self'; frame-ancestors 'none'; img-src 'self' data:",
    )
  })
})

describe('allowed hosts with a `*` label (the Kubernetes recipe: the Service in any namespace)', () => {
  const app = createApp({
    allowedHosts: ['petstore-mock', 'petstore-mock.*.svc.cluster.local'],
  })
  it.each([
    ['petstore-mock', 200],
    // The short forms need a `*` in the last two labels, which --allowed-hosts refuses (issue 40 §4).
    ['petstore-mock.default', 403],
    ['petstore-mock.ci.svc', 403],
    ['petstore-mock.default.svc.cluster.local:4010', 200],
    ['PETSTORE-MOCK.Team-A.svc.cluster.local', 200],
    ['petstore-mock.a.b', 403],
    ['petstore-mock.default.svc.cluster.local.evil.example', 403],
    ['other.default.svc.cluster.local', 403],
    ['petstore-mock..svc', 403],
    ['evil.example', 403],
  ])('Host %s → %i', async (host, status) => {
    expect((await app.request(`http://${host}/__admin/requests`)).status).toBe(status)
  })
})
