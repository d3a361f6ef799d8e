import { describe, expect, it } from 'vitest'
import { answerOf, useBothHosts } from '../helpers/both-hosts.js'
import { bearer } from '../helpers/auth.js'

// OPTIONS without Origin is not a CORS preflight: RFC 9110 §9.3.7, it asks what the path supports.
// Every path with routes answers 204 with Allow (the path's methods and OPTIONS), with no auth on /v1
// (as preflights) and behind the admin guard and token on /__admin (health's included). A preflight (with Origin) is
// answered by the CORS policy, as before.
const admin = bearer('admin-secret')
const hosts = useBothHosts(['--api-key', 'test-key', '--admin-token', 'admin-secret'], {
  apiKeys: ['test-key'],
  adminToken: 'admin-secret',
})

// Every answer but the panel's files carries the no-script headers (issue 40 §1).
const noScript: [string, string][] = [
  ['content-security-policy', "sandbox; default-src 'none'"],
  ['x-content-type-options', 'nosniff'],
]
const allows = (allow: string) => ({
  status: 204,
  headers: [['allow', allow], ...noScript].sort(([a], [b]) => a!.localeCompare(b!)),
  body: '',
})
const error = (status: number, code: string, message: string, headers: [string, string][] = []) => ({
  status,
  headers: [['content-type', 'application/json'], ...noScript, ...headers].sort(([a], [b]) => a!.localeCompare(b!)),
  body: JSON.stringify({ code, message, status }),
})

type Row = [label: string, path: string, headers: Record<string, string>, expected: ReturnType<typeof allows>]

const rows: Row[] = [
  ['/v1/pets', '/v1/pets', {}, allows('GET, HEAD, POST, OPTIONS')],
  ['/v1/pets/{petId}', '/v1/pets/7', {}, allows('GET, HEAD, OPTIONS')],
  ['/v1/pets/{petId}, a petId that is no id', '/v1/pets/abc', {}, allows('GET, HEAD, OPTIONS')],
  ['/v1/pets with a wrong API key', '/v1/pets', bearer('wrong'), allows('GET, HEAD, POST, OPTIONS')],
  ['/v1/pets with a query', '/v1/pets?limit=0', {}, allows('GET, HEAD, POST, OPTIONS')],
  ['an unknown /v1 path', '/v1/owners', {}, error(404, 'not_found', 'No route for OPTIONS /v1/owners.')],
  ['/openapi.yaml', '/openapi.yaml', {}, allows('GET, HEAD, OPTIONS')],
  ['/__admin/faults', '/__admin/faults', admin, allows('POST, GET, HEAD, DELETE, OPTIONS')],
  ['/__admin/reset', '/__admin/reset', admin, allows('POST, OPTIONS')],
  ['/__admin/health', '/__admin/health', admin, allows('GET, HEAD, OPTIONS')],
  [
    // Only GET and HEAD of health are open: OPTIONS is behind the token, as every other admin request.
    '/__admin/health without the admin token',
    '/__admin/health',
    {},
    error(401, 'unauthorized', 'Missing admin token; send Authorization: Bearer <admin token>.', [
      ['www-authenticate', 'Bearer realm="petstore-admin"'],
    ]),
  ],
  ['an unknown /__admin path', '/__admin/nope', admin, error(404, 'not_found', 'No route for OPTIONS /__admin/nope.')],
  [
    '/__admin/faults from a page of another origin',
    '/__admin/faults',
    { ...admin, Origin: 'http://elsewhere.test', 'Access-Control-Request-Method': 'POST' },
    error(
      403,
      'forbidden',
      'Requests to /__admin from pages of another origin are refused (Origin: "http://elsewhere.test"); allow an origin with --admin-cors-origin.',
    ),
  ],
]

describe.each(hosts)('OPTIONS without Origin on $name', (host) => {
  it.each(rows)('%s', async (_, path, headers, expected) => {
    expect(await answerOf(await host.fetch(path, { method: 'OPTIONS', headers }))).toEqual(expected)
  })

  it('a preflight (with Origin) is still answered by the CORS policy, without Allow', async () => {
    const res = await host.fetch('/v1/pets', {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST' },
    })
    expect(await answerOf(res)).toEqual({
      status: 204,
      headers: [
        ['access-control-allow-headers', 'Authorization,Content-Type,Prefer,X-Mock-Session'],
        ['access-control-allow-methods', 'GET,HEAD,POST'],
        ['access-control-allow-origin', 'http://localhost:5173'],
        [
          'access-control-expose-headers',
          'Location,Deprecation,Sunset,Link,WWW-Authenticate,Retry-After,Allow,RateLimit-Policy,RateLimit,X-Mock-Session-Created',
        ],
        ['access-control-max-age', '600'],
        ['content-security-policy', "sandbox; default-src 'none'"],
        ['vary', 'Origin, Access-Control-Request-Headers'],
        ['x-content-type-options', 'nosniff'],
      ],
      body: '',
    })
  })

  it('a 405 lists OPTIONS in Allow too', async () => {
    const res = await host.fetch('/v1/pets/7', { method: 'DELETE', headers: bearer('test-key') })
    expect(await answerOf(res)).toEqual(
      error(405, 'method_not_allowed', 'DELETE is not allowed on /v1/pets/7; use GET, HEAD.', [
        ['allow', 'GET, HEAD, OPTIONS'],
      ]),
    )
  })

  it('is journaled under /v1 with a key (the client sent it, not a browser); without one, nowhere', async () => {
    await host.fetch('/__admin/requests', { method: 'DELETE', headers: admin })
    // Authentication first (issue 39): without valid credentials the same 204, from no session.
    await host.fetch('/v1/pets/7', { method: 'OPTIONS', headers: bearer('wrong') })
    await host.fetch('/v1/pets/7', { method: 'OPTIONS', headers: bearer('test-key') })
    const { requests } = (await (await host.fetch('/__admin/requests', { headers: admin })).json()) as {
      requests: { method: string; path: string; status: number; operation: string | null }[]
    }
    expect(requests.map(({ method, path, status, operation }) => ({ method, path, status, operation }))).toEqual([
      { method: 'OPTIONS', path: '/v1/pets/7', status: 204, operation: null },
    ])
  })
})
