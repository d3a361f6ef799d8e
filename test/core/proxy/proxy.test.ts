import { createServer, type IncomingMessage, type Server } from 'node:http'
import { mkdtempSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type AppOptions, createApp } from '../../../src/core/app.js'
import { createProxy } from '../../../src/core/proxy/create-proxy.js'
import type { ProxyOptions } from '../../../src/core/proxy/proxy-options.js'
import { nodeTransport } from '../../../src/node/server/node-transport.js'
import { listen, type RunningServer } from '../../../src/node/server/server.js'
import { spawnServer } from '../../helpers/spawn-server.js'
import { type StandIn, startStandIn } from '../../helpers/stand-in.js'
import { bearer } from '../../helpers/auth.js'
import { freePort } from '../../helpers/free-port.js'

const secret = 'Bearer s3cr3t-token-never-kept'
const closers: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

/** The mock with --proxy, on a loopback socket. */
const startProxy = async (proxy: ProxyOptions, options: AppOptions = {}): Promise<RunningServer> => {
  const running = await listen(createApp({ proxy: createProxy(proxy), transport: nodeTransport, ...options }), {
    host: '127.0.0.1',
    port: 0,
    headersTimeout: 5000,
    requestTimeout: 10_000,
    sendTimeout: 10_000,
  })
  closers.push(() => running.close(500))
  return running
}

const standIn = async (...args: Parameters<typeof startStandIn>): Promise<StandIn> => {
  const started = await startStandIn(...args)
  closers.push(() => started.close())
  return started
}

interface Seen {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: Buffer
}

/** A raw upstream: records each request and answers `reply` (or never, when null). */
const rawUpstream = async (
  reply: { status: number; headers: Record<string, string>; body: Buffer } | null,
): Promise<{ url: string; seen: Seen[] }> => {
  const seen: Seen[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) })
      if (reply) res.writeHead(reply.status, reply.headers).end(reply.body)
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  closers.push(
    () =>
      new Promise((r) => {
        server.closeAllConnections()
        server.close(r)
      }),
  )
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }
}

const journal = async (url: string, session?: string) =>
  (
    (await (
      await fetch(`${url}/__admin/requests`, { headers: session ? { 'X-Mock-Session': session } : {} })
    ).json()) as {
      requests: { operation: string | null; status: number; violations?: string[]; shapedBy?: unknown[] }[]
    }
  ).requests

describe('--proxy forwards and answers unchanged', () => {
  it('passes the answer through byte for byte, status and headers included', async () => {
    const body = Buffer.from('[ {"id": 1, "name": "Bíscuit" ,"categoryId":1} ]\n', 'utf8')
    const upstream = await rawUpstream({
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8', 'x-upstream': 'yes', etag: '"v1"' },
      body,
    })
    const proxy = await startProxy({ url: upstream.url })
    const res = await fetch(`${proxy.url}/v1/pets?limit=5&status=available`, { headers: { Authorization: secret } })
    expect(res.status).toBe(200)
    expect(Buffer.from(await res.arrayBuffer())).toEqual(body)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.headers.get('x-upstream')).toBe('yes')
    expect(res.headers.get('etag')).toBe('"v1"')
    expect(res.headers.get('x-contract-violations')).toBeNull()
    expect((await journal(proxy.url))[0]!.violations).toBeUndefined()
  })

  it('forwards method, path, query, headers with Authorization, and body; not the mock controls', async () => {
    const upstream = await rawUpstream({
      status: 201,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{"id":7,"name":"Rex","categoryId":2}'),
    })
    const proxy = await startProxy({ url: `${upstream.url}/v1` })
    const sent = '{"name":"Rex",  "categoryId":2}'
    const res = await fetch(`${proxy.url}/v1/pets?trace=1&__delay=0`, {
      method: 'POST',
      headers: { Authorization: secret, 'Content-Type': 'application/json', 'X-Client': 'qa', 'X-Mock-Session': 'qa' },
      body: sent,
    })
    expect(res.status).toBe(201)
    const [request] = upstream.seen
    expect(request).toMatchObject({ method: 'POST', url: '/v1/pets?trace=1' })
    expect(request!.body.toString()).toBe(sent)
    expect(request!.headers).toMatchObject({
      authorization: secret,
      'content-type': 'application/json',
      'x-client': 'qa',
      'accept-encoding': 'identity',
    })
    expect(request!.headers['x-mock-session']).toBeUndefined()
  })
})

describe('--proxy validates every exchange', () => {
  it('a conforming deployment: no violation over list, create and read', async () => {
    const upstream = await standIn()
    const proxy = await startProxy({ url: upstream.url })
    const headers = { Authorization: secret, 'Content-Type': 'application/json' }
    expect((await fetch(`${proxy.url}/v1/pets`, { headers })).status).toBe(200)
    const created = await fetch(`${proxy.url}/v1/pets`, {
      method: 'POST',
      headers,
      body: '{"name":"Rex","categoryId":2}',
    })
    expect(created.status).toBe(201)
    expect((await fetch(`${proxy.url}/v1/pets/13`, { headers })).status).toBe(200)
    expect((await fetch(`${proxy.url}/v1/pets/999`, { headers })).status).toBe(404)
    expect((await journal(proxy.url)).map((e) => e.violations)).toEqual([undefined, undefined, undefined, undefined])
    const health = await (await fetch(`${proxy.url}/__admin/health`)).json()
    expect(health.proxy).toEqual({ upstream: `${upstream.url}/v1`, forwarded: 4, withViolations: 0, violations: {} })
  })

  it.each([
    ['missing-field', 'GET', '/v1/pets', ['listPets: item 0 lacks required categoryId, the contract says a Pets']],
    ['wrong-status', 'POST', '/v1/pets', ['createPet: 200, a status the contract does not document (201, 400, 401)']],
    ['error-missing-field', 'GET', '/v1/pets/999', ['getPet: 404 body is not an Error: lacks required message']],
    ['no-deprecation', 'GET', '/v1/pets/1', ['getPet: no Deprecation header, the contract marks getPet deprecated']],
    ['id-type', 'GET', '/v1/pets/1', ['getPet: id must be an integer (got "1"), the contract says a Pet']],
  ] as const)('flags exactly the drift %s', async (drift, method, path, violations) => {
    const upstream = await standIn(drift)
    const proxy = await startProxy({ url: upstream.url, flagViolations: true })
    const res = await fetch(`${proxy.url}${path}`, {
      method,
      headers: { Authorization: secret, 'Content-Type': 'application/json' },
      ...(method === 'POST' && { body: '{"name":"Rex","categoryId":2}' }),
    })
    expect(res.headers.get('x-contract-violations')).toBe('1')
    const [entry] = await journal(proxy.url)
    expect(entry!.violations).toEqual(violations)
    const health = await (await fetch(`${proxy.url}/__admin/health`)).json()
    expect(health.proxy.withViolations).toBe(1)
    const har = await (await fetch(`${proxy.url}/__admin/requests.har`)).json()
    expect(har.log.entries[0]._violations).toEqual(violations)
  })

  it('the event stream carries the violations as they happen', async () => {
    const upstream = await standIn('missing-field')
    const proxy = await startProxy({ url: upstream.url })
    const stream = await fetch(`${proxy.url}/__admin/requests/stream`)
    const reader = stream.body!.getReader()
    try {
      await fetch(`${proxy.url}/v1/pets`, { headers: { Authorization: secret } })
      let text = ''
      const deadline = Date.now() + 3000
      while (!text.includes('"violations"') && Date.now() < deadline) {
        const { done, value } = await reader.read()
        if (done) break
        text += new TextDecoder().decode(value)
      }
      expect(text).toContain('"violations":["listPets: item 0 lacks required categoryId, the contract says a Pets"]')
    } finally {
      await reader.cancel()
    }
  })

  it('a request that breaks the contract is forwarded anyway, and flagged', async () => {
    const upstream = await standIn()
    const proxy = await startProxy({ url: upstream.url })
    const res = await fetch(`${proxy.url}/v1/pets?limit=500`, { headers: {} })
    expect(res.status).toBe(401)
    expect(upstream.requests()).toBe(1)
    expect((await journal(proxy.url))[0]!.violations).toEqual([
      'listPets: request has no Authorization: Bearer key, the contract requires one',
      'listPets: request limit must be an integer between 1 and 100 (got "500")',
    ])
    const bad = await fetch(`${proxy.url}/v1/pets`, {
      method: 'POST',
      headers: { Authorization: secret, 'Content-Type': 'application/json' },
      body: '{"name":5,"categoryId":2}',
    })
    expect(bad.status).toBe(400)
    expect((await journal(proxy.url))[0]!.violations).toEqual(['createPet: request name must be a string'])
  })
})

describe('--proxy keeps the control plane', () => {
  it('fault rules and Prefer overrides answer locally: an injected error never reaches the deployment', async () => {
    const upstream = await standIn()
    const proxy = await startProxy({ url: upstream.url })
    const rule = await fetch(`${proxy.url}/__admin/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"operation":"createPet","status":503,"times":1}',
    })
    expect(rule.status).toBe(201)
    const res = await fetch(`${proxy.url}/v1/pets`, {
      method: 'POST',
      headers: { Authorization: secret, 'Content-Type': 'application/json' },
      body: '{"name":"Rex","categoryId":2}',
    })
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('1')
    expect(await res.json()).toEqual({
      code: 'service_unavailable',
      message: 'The service is temporarily unavailable; retry later.',
      status: 503,
    })
    const forced = await fetch(`${proxy.url}/v1/pets/1`, { headers: { Authorization: secret, Prefer: 'code=404' } })
    expect(forced.status).toBe(404)
    expect(forced.headers.get('deprecation')).toBe('@0')
    expect(upstream.requests()).toBe(0)
    const entries = await journal(proxy.url)
    expect(entries.map((e) => [e.operation, e.status, e.shapedBy])).toEqual([
      ['getPet', 404, [{ by: 'override', status: 404 }]],
      ['createPet', 503, [{ by: 'fault', ruleId: 1, status: 503 }]],
    ])
    // The rule is spent: the next create reaches the deployment.
    const next = await fetch(`${proxy.url}/v1/pets`, {
      method: 'POST',
      headers: { Authorization: secret, 'Content-Type': 'application/json' },
      body: '{"name":"Rex","categoryId":2}',
    })
    expect(next.status).toBe(201)
    expect(upstream.posts()).toBe(1)
  })

  it('an unreachable deployment: 502 with an Error body', async () => {
    const port = await freePort()
    const proxy = await startProxy({ url: `http://127.0.0.1:${port}` })
    const res = await fetch(`${proxy.url}/v1/pets`, { headers: { Authorization: secret } })
    expect(res.status).toBe(502)
    expect(await res.json()).toEqual({
      code: 'bad_gateway',
      message: `The deployment at http://127.0.0.1:${port} could not be reached (ECONNREFUSED).`,
      status: 502,
    })
  })

  it('a deployment that does not answer in time: 504 with an Error body', async () => {
    const upstream = await rawUpstream(null)
    const proxy = await startProxy({ url: upstream.url, timeoutMs: 300 })
    const res = await fetch(`${proxy.url}/v1/pets`, { headers: { Authorization: secret } })
    expect(res.status).toBe(504)
    expect(await res.json()).toEqual({
      code: 'gateway_timeout',
      message: `The deployment at ${upstream.url} did not answer within 300 ms.`,
      status: 504,
    })
    expect(upstream.seen).toHaveLength(1)
  })
})

describe('--proxy records a session that replays offline', () => {
  it('pets answered go to the session; its snapshot replays with --snapshot; no secret kept in clear', async () => {
    const upstream = await standIn()
    const proxy = await startProxy({ url: upstream.url })
    const headers = { Authorization: secret, 'Content-Type': 'application/json', 'X-Mock-Session': 'qa' }
    const listed = await (await fetch(`${proxy.url}/v1/pets?limit=3`, { headers })).json()
    const created = await (
      await fetch(`${proxy.url}/v1/pets`, {
        method: 'POST',
        headers,
        body: '{"name":"Rex","categoryId":2,"status":"sold"}',
      })
    ).json()
    expect(created).toEqual({ id: 13, name: 'Rex', categoryId: 2, status: 'sold' })
    const snapshotRes = await fetch(`${proxy.url}/__admin/snapshot`, {
      headers: { 'X-Mock-Session': 'qa', Accept: 'application/json' },
    })
    const snapshotText = await snapshotRes.text()
    const snapshot = JSON.parse(snapshotText)
    expect(snapshot.pets).toEqual([...listed, created])
    // The default session recorded nothing: sessions stay apart.
    expect((await (await fetch(`${proxy.url}/__admin/state`)).json()).pets).toEqual([])
    const harText = await (
      await fetch(`${proxy.url}/__admin/requests.har`, { headers: { 'X-Mock-Session': 'qa' } })
    ).text()
    const journalText = await (
      await fetch(`${proxy.url}/__admin/requests`, { headers: { 'X-Mock-Session': 'qa' } })
    ).text()
    for (const text of [snapshotText, harText, journalText]) expect(text).not.toContain('s3cr3t')
    expect(journalText).toContain('"authorization":"Bearer s3…"')

    const dir = mkdtempSync(join(tmpdir(), 'petstore-proxy-'))
    const file = join(dir, 'qa.snapshot.json')
    writeFileSync(file, snapshotText)
    const offline = await spawnServer(['--snapshot', file, '--log', 'silent'])
    try {
      const auth = bearer('offline')
      expect(await (await fetch(`${offline.url}/v1/pets/13`, { headers: auth })).json()).toEqual(created)
      expect(await (await fetch(`${offline.url}/v1/pets?limit=3`, { headers: auth })).json()).toEqual(listed)
      const next = await fetch(`${offline.url}/v1/pets`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: '{"name":"Ivy","categoryId":1}',
      })
      expect((await next.json()).id).toBe(14)
    } finally {
      await offline.stop()
    }
  })
})

describe('proxy options', () => {
  it.each([
    [{ url: 'ftp://x' }, 'proxy.url must be an absolute http(s) URL (got "ftp://x")'],
    [{ url: 'http://x', timeoutMs: 0 }, 'proxy.timeoutMs must be an integer between 1 and 600000 (got 0)'],
    [{ url: 'http://x', flagViolations: 'yes' }, 'proxy.flagViolations must be true or false (got "yes")'],
  ])('%j is refused', (proxy, message) => {
    expect(() => createProxy(proxy as ProxyOptions)).toThrow(TypeError)
    expect(() => createProxy(proxy as ProxyOptions)).toThrow(message)
  })
})
