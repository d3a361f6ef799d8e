import { createServer, type Server } from 'node:http'
import { connect } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../../src/core/app.js'
import { createProxy } from '../../../src/core/proxy/create-proxy.js'
import { noScriptPolicy } from '../../../src/core/http/no-script.js'
import { panelContentSecurityPolicy } from '../../../src/core/served/panel-routes.js'
import { useBothHosts } from '../../helpers/both-hosts.js'
import { bearer } from '../../helpers/auth.js'

// Issue 40 §1: a rule's text/html answer was served on the mock's origin with no CSP and no nosniff.
// Every answer but the QA panel's own files carries `Content-Security-Policy: sandbox; …` and
// `X-Content-Type-Options: nosniff`: /v1 (the handlers', the errors', a rule's, 404 and 405, OPTIONS,
// preflights), the served contract, every /__admin answer (the guard's refusals included).
const admin = bearer('admin-secret')
const hosts = useBothHosts(['--api-key', 'test-key', '--admin-token', 'admin-secret'], {
  apiKeys: ['test-key'],
  adminToken: 'admin-secret',
})
const key = bearer('test-key')
const json = { 'Content-Type': 'application/json' }

type Row = [label: string, path: string, init: RequestInit, status: number]

const rows: Row[] = [
  ['listPets', '/v1/pets', { headers: key }, 200],
  ['createPet', '/v1/pets', { method: 'POST', headers: { ...key, ...json }, body: '{"name":"a","categoryId":1}' }, 201],
  ['a deprecated operation (getPet)', '/v1/pets/1', { headers: key }, 200],
  ['HEAD', '/v1/pets', { method: 'HEAD', headers: key }, 200],
  ['401 without a key', '/v1/pets', {}, 401],
  ['400 bad query', '/v1/pets?limit=x', { headers: key }, 400],
  ['404 no pet', '/v1/pets/999999', { headers: key }, 404],
  ['404 no route under /v1', '/v1/owners', { headers: key }, 404],
  ['404 no route at all', '/nowhere', {}, 404],
  ['405', '/v1/pets/1', { method: 'DELETE', headers: key }, 405],
  ['OPTIONS without Origin', '/v1/pets', { method: 'OPTIONS' }, 204],
  [
    'a CORS preflight',
    '/v1/pets',
    { method: 'OPTIONS', headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST' } },
    204,
  ],
  ['a CORS answer', '/v1/pets', { headers: { ...key, Origin: 'http://localhost:5173' } }, 200],
  ['a forced status (Prefer)', '/v1/pets', { headers: { ...key, Prefer: 'code=503' } }, 503],
  ['the served contract (JSON)', '/openapi.json', {}, 200],
  ['the served contract (YAML)', '/openapi.yaml', {}, 200],
  ['a session prefix', '/sessions/no-script/v1/pets', { headers: key }, 200],
  ['admin JSON', '/__admin/faults', { headers: admin }, 200],
  ['admin 401', '/__admin/faults', {}, 401],
  ['admin 403 (foreign Origin)', '/__admin/faults', { headers: { ...admin, Origin: 'http://evil.test' } }, 403],
  ['admin 404', '/__admin/nothing-here', { headers: admin }, 404],
  ['health', '/__admin/health', {}, 200],
  ['a probe', '/__admin/health/live', {}, 200],
  ['the HAR download', '/__admin/requests.har', { headers: admin }, 200],
  ['the admin document', '/__admin/openapi.json', { headers: admin }, 200],
  ['the redirect to the panel', '/__admin', { redirect: 'manual' }, 308],
]

// msw answers only the mock's own routes: a path outside them, and /__admin without the slash, go to the network.
const serverOnly = new Set(['404 no route at all', 'the redirect to the panel'])

describe.each(hosts)('no answer can run script on the mock origin, on $name', (host) => {
  it.each(host.name === 'msw' ? rows.filter(([label]) => !serverOnly.has(label)) : rows)(
    '%s: CSP sandbox and nosniff',
    async (_, path, init, status) => {
      const res = await host.fetch(path, init)
      expect(res.status).toBe(status)
      expect(res.headers.get('content-security-policy')).toBe(noScriptPolicy)
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    },
  )

  it("a rule's text/html keeps its type and status; its own CSP cannot loosen the sandbox", async () => {
    const rule = await host.fetch('/__admin/faults', {
      method: 'POST',
      headers: { ...admin, ...json, 'X-Mock-Session': `html-${host.name}` },
      body: JSON.stringify({
        operation: 'listPets',
        status: 502,
        breaksContract: true,
        headers: {
          'Content-Type': 'text/html',
          'Content-Security-Policy': "script-src 'unsafe-inline'",
          'X-Content-Type-Options': 'sniff-away',
        },
        body: '<html><body><h1>502 Bad Gateway</h1><script>alert(1)</script></body></html>',
      }),
    })
    expect(rule.status).toBe(201)
    const res = await host.fetch('/v1/pets', { headers: { ...key, 'X-Mock-Session': `html-${host.name}` } })
    expect(res.status).toBe(502)
    expect(res.headers.get('content-type')).toBe('text/html')
    expect(res.headers.get('content-security-policy')).toBe(noScriptPolicy)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await res.text()).toContain('<h1>502 Bad Gateway</h1>')
  })

  it("the panel's own files keep their own policy, which allows their script", async () => {
    for (const file of ['/__admin/', '/__admin/panel.js', '/__admin/panel.css', '/__admin/favicon.svg']) {
      const res = await host.fetch(file)
      expect(res.status, file).toBe(200)
      const policy = res.headers.get('content-security-policy')
      if (file === '/__admin/') expect(policy, file).toMatch(/^default-src 'none'; script-src 'nonce-[^']+'; /)
      else expect(policy, file).toBe(panelContentSecurityPolicy)
      expect(res.headers.get('x-content-type-options'), file).toBe('nosniff')
    }
  })
})

describe("the Node host's own answers", () => {
  const [server] = hosts
  it.each([
    ['a bad request line', 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nBad\u0001Header: 1\r\n\r\n', 400],
    ['CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 405],
    ['an Expect it does not meet', 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nExpect: nothing\r\n\r\n', 417],
    ['a target that is no path', 'OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n', 400],
  ])('%s: %i with CSP sandbox and nosniff', async (_, raw, status) => {
    const { port, hostname } = new URL(server!.url()!)
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname)
      let text = ''
      socket.on('data', (chunk) => (text += chunk))
      socket.on('end', () => resolve(text))
      socket.on('error', reject)
      socket.write(raw)
      setTimeout(() => socket.end(), 500)
    })
    expect(answer).toMatch(new RegExp(`^HTTP/1.1 ${status} `))
    expect(answer.toLowerCase()).toContain(`content-security-policy: ${noScriptPolicy}\r\n`.toLowerCase())
    expect(answer.toLowerCase()).toContain('x-content-type-options: nosniff\r\n')
  })
})

describe('--proxy: the deployment answers on the mock origin, under the sandbox too', () => {
  let upstream: Server
  let url: string
  beforeAll(async () => {
    upstream = createServer((_, res) => {
      res.writeHead(502, {
        'Content-Type': 'text/html',
        'Content-Security-Policy': "frame-ancestors 'self'",
      })
      res.end('<html><body>upstream<script>alert(1)</script></body></html>')
    })
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())))

  it("keeps the deployment's type and policy, and adds the sandbox beside it", async () => {
    const app = createApp({ proxy: createProxy({ url }) })
    const res = await app.request('/v1/pets', { headers: key })
    expect(res.status).toBe(502)
    expect(res.headers.get('content-type')).toBe('text/html')
    expect(res.headers.get('content-security-policy')).toBe(`frame-ancestors 'self', ${noScriptPolicy}`)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  })
})
