import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHandlers } from '../../src/msw/index.js'
import { assertContract, auth, postJson } from '../helpers/contract.js'
import { type SpawnedServer, spawnServer } from '../helpers/spawn-server.js'
import { onePet } from '../helpers/fixtures.js'

// "Byte for byte": the same requests, in the same order, to a spawned server and through msw give the same
// status, headers and body bytes. Left out of the comparison: what Node's HTTP layer adds on the wire and no
// handler writes (Date, Connection, Keep-Alive, Transfer-Encoding); Content-Length, which Node adds to some
// answers, is checked against the body instead. Clock-dependent fields (journal time and durationMs, health
// uptime) are compared by type.
const mockOrigin = 'http://petstore.test'
const wireOnly = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'])
const admin = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(body),
})
const session = { 'X-Mock-Session': 'job-1' }
const identity = { 'Accept-Encoding': 'identity' }
const notUtf8 = new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d])

// The third element marks the answer a malformed_body fault cuts in half: no contract check for it.
const steps: [string, RequestInit?, 'malformed'?][] = [
  ['/v1/pets', { headers: auth() }],
  ['/v1/pets?status=available&limit=2', { headers: auth() }],
  ['/v1/pets', postJson({ name: 'Rex', categoryId: 2, status: 'pending', extra: 1 })],
  ['/v1/pets/13', { headers: auth() }],
  ['/v1/pets/999', { headers: auth() }],
  ['/v1/pets/1', { method: 'DELETE', headers: auth() }],
  ['/v1/pets/1', { method: 'HEAD', headers: auth() }],
  ['/v1/nothing', { headers: auth() }],
  ['/v1/pets'],
  ['/v1/pets', { headers: auth({}, 'a b') }],
  ['/v1/pets', postJson({ categoryId: 2 })],
  ['/v1/pets', postJson('{"name":"a","name":"b","categoryId":1}')],
  ['/v1/pets', postJson('{"name":"a","categoryId":9007199254740993}')],
  ['/v1/pets', { method: 'POST', headers: auth({ 'Content-Type': 'text/plain' }), body: 'x' }],
  ['/v1/pets', { method: 'POST', headers: auth({ 'Content-Type': 'application/json' }), body: notUtf8 }],
  ['/v1/pets', postJson('')],
  ['/v1/pets', { method: 'POST', headers: auth() }],
  ['/v1/pets', { method: 'OPTIONS' }],
  ['/v1/pets/7', { method: 'OPTIONS', headers: auth() }],
  ['/__admin/faults', { method: 'OPTIONS' }],
  ['/v1/pets', postJson({ name: 'x'.repeat(1024 * 1024), categoryId: 1 })],
  ['/v1/pets?limit=0&limit=1', { headers: auth() }],
  ['/v1/pets', { headers: auth({ Prefer: 'code=503' }) }],
  ['/v1/pets/1?__code=401', { headers: auth() }],
  ['/v1/pets?__code=299', { headers: auth() }],
  ['/v1/pets', { headers: auth({ Origin: 'http://localhost:5173' }) }],
  [
    '/v1/pets',
    {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST' },
    },
  ],
  ['/__admin/faults', admin({ operation: 'listPets', status: 502, times: 1 })],
  ['/__admin/faults', admin({ operation: 'getPet', fault: 'malformed_body', times: 1 })],
  ['/__admin/faults', admin({ operation: 'listPets', fault: 'empty_response', times: 1 })],
  ['/__admin/faults', admin({ status: 200 })],
  ['/__admin/faults'],
  ['/__admin/faults', { headers: { Origin: 'http://elsewhere.test' } }],
  ['/v1/pets', { headers: auth() }],
  ['/v1/pets', { headers: auth() }],
  ['/v1/pets/2', { headers: auth() }, 'malformed'],
  ['/v1/pets', postJson({ name: 'Solo', categoryId: 1 }, session)],
  ['/v1/pets/13', { headers: auth(session) }],
  ['/__admin/sessions'],
  ['/__admin/state', { method: 'PUT', ...admin({ pets: onePet() }) }],
  ['/__admin/state', { method: 'PUT', ...admin({ pets: [{ id: 1, name: 'a' }] }) }],
  ['/__admin/state'],
  ['/__admin/requests?limit=30'],
  ['/__admin/requests?status=abc'],
  ['/__admin/requests', { method: 'DELETE' }],
  ['/__admin/seed', admin({ count: 3, seed: 7 })],
  ['/v1/pets', { headers: auth() }],
  ['/__admin/faults', { method: 'DELETE' }],
  ['/__admin/sessions/job-1', { method: 'DELETE' }],
  ['/__admin/sessions/default', { method: 'DELETE' }],
  ['/__admin/reset', { method: 'POST' }],
  ['/__admin/health'],
  // The QA panel's files, which both hosts import when first asked for: not compressed here (msw hands
  // its Response over as it is, where Node's fetch would decode it).
  ['/__admin/', { headers: identity }],
  ['/__admin/panel.js', { headers: identity }],
  ['/__admin/panel.css', { headers: identity }],
  ['/__admin/favicon.svg', { headers: identity }],
  ['/__admin/index.html', { headers: { ...identity, 'If-None-Match': '*' } }],
  ['/openapi.yaml'],
  ['/openapi.json'],
]

interface Answer {
  status: number
  headers: [string, string][]
  body: Buffer
}

const answer = async (origin: string, path: string, init: RequestInit = {}, malformed = false): Promise<Answer> => {
  const res = await fetch(`${origin}${path}`, init)
  if (!malformed) await assertContract(init.method ?? 'GET', path, res)
  const body = Buffer.from(await res.arrayBuffer())
  const length = res.headers.get('content-length')
  if (length !== null) expect(Number(length), `${path}: Content-Length`).toBe(body.byteLength)
  // X-Request-Id: made anew for each request (log/request-id.ts). The panel's page has a nonce of its own
  // at each load (issue 40 §1): the same place, another value.
  const headers = [...res.headers]
    .filter(([name]) => !wireOnly.has(name) && name !== 'x-request-id')
    .map(([name, value]): [string, string] => [name, nonceFree(value)])
  return { status: res.status, headers, body: Buffer.from(nonceFree(body.toString('latin1')), 'latin1') }
}

const nonceFree = (text: string): string =>
  text.replace(/'nonce-[A-Za-z0-9+/=]+'/g, "'nonce-…'").replace(/nonce="[A-Za-z0-9+/=]+"/g, 'nonce="…"')

// Journal times and durations, and health's uptime, depend on the clock; the journal's Host header on the origin;
// health's memory figures on the host (the server derives a budget, the handlers have none).
const clockFree = (text: string): string =>
  text
    .replace(/"time":"[^"]+"/g, '"time":"…"')
    .replace(/"host":"[^"]+"/g, '"host":"…"')
    .replace(/"durationMs":[0-9.]+/g, '"durationMs":0')
    .replace(/"uptimeSeconds":[0-9]+/g, '"uptimeSeconds":0')
    .replace(/"memory":\{"budgetBytes".*?"entries":[0-9]+\}\}/g, '"memory":{…}')

let server: SpawnedServer
const msw = setupServer(...createHandlers({ baseUrl: mockOrigin }))

beforeAll(async () => {
  server = await spawnServer(['--log', 'silent'])
  msw.listen({ onUnhandledFrame: 'bypass' })
})
afterAll(async () => {
  msw.close()
  await server?.stop()
})

describe('msw answers byte for byte as the server', () => {
  it(`gives the same status, headers and body for ${steps.length} requests in a row`, async () => {
    for (const [path, init, note] of steps) {
      const where = `${init?.method ?? 'GET'} ${path}`
      const fromServer = await answer(server.url, path, init, note === 'malformed')
      const fromMsw = await answer(mockOrigin, path, init, note === 'malformed')
      expect(fromMsw.status, where).toBe(fromServer.status)
      expect(fromMsw.headers, where).toEqual(fromServer.headers)
      expect(clockFree(fromMsw.body.toString('latin1')), where).toBe(clockFree(fromServer.body.toString('latin1')))
      if (!/requests|health/.test(path)) expect(fromMsw.body.equals(fromServer.body), where).toBe(true)
    }
  })
})
