import type { AddressInfo } from 'node:net'
import { readFileSync } from 'node:fs'
import { serve } from '@hono/node-server'
import { afterEach, describe, expect, it } from 'vitest'
import { createApp, type AppOptions } from '../../../src/core/app.js'
import { createLogger, loggable, maxLoggedValue, printable } from '../../../src/core/log/log.js'
import { maxRequestIdLength } from '../../../src/core/log/request-id.js'
import { keyFingerprint } from '../../../src/core/http/request/key-fingerprint.js'
import { checkTenants } from '../../../src/core/tenants/check-tenants.js'
import type { Tenant } from '../../../src/core/tenants/tenant.js'
import { nodeTransport } from '../../../src/node/server/node-transport.js'

const exampleTenants = (): Tenant[] => {
  const tenants = checkTenants(
    JSON.parse(readFileSync(new URL('../../../examples/tenants/tenants.json', import.meta.url), 'utf8')),
  )
  if (typeof tenants === 'string') throw new Error(tenants)
  return tenants
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

const stops: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop()
})

/** The mock on a real socket (Node's transport: the client's address), its log lines parsed. */
const listening = async (format: 'json' | 'pretty', options: AppOptions = {}) => {
  const lines: string[] = []
  const app = createApp({
    tenants: exampleTenants(),
    // A key of no tenant: with tenants, the accepted /v1 keys are these and the tenants' (issue 39).
    apiKeys: ['k'],
    adminToken: 'root-1',
    transport: nodeTransport,
    logger: createLogger(format, { write: (text) => lines.push(text) }),
    ...options,
  })
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise<void>((resolve) => server.once('listening', resolve))
  stops.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const request = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${url}${path}`, init)
    await res.arrayBuffer()
    return res
  }
  const records = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>)
  return { request, lines, records }
}

describe('X-Request-Id', () => {
  it('is answered on every /v1 and /__admin answer: the caller’s when safe, else one made here', async () => {
    const { request } = await listening('json')
    const sent = 'req-01HZX8Q2:abc/def_1.2'
    for (const path of ['/v1/pets', '/v1/pets/999999', '/v1/nowhere', '/__admin/health', '/__admin/requests']) {
      const echoed = await request(path, { headers: { 'X-Request-Id': sent, Authorization: 'Bearer root-1' } })
      expect(echoed.headers.get('x-request-id'), path).toBe(sent)
      const made = await request(path, { headers: { Authorization: 'Bearer root-1' } })
      expect(made.headers.get('x-request-id'), path).toMatch(uuid)
    }
    // Refusals too: a /v1 401 and a control-plane 401.
    expect((await request('/v1/pets', { headers: { 'X-Request-Id': sent } })).headers.get('x-request-id')).toBe(sent)
    expect(
      (await request('/__admin/requests', { headers: { 'X-Request-Id': sent } })).headers.get('x-request-id'),
    ).toBe(sent)
    const ids = new Set<string | null>()
    for (let i = 0; i < 5; i++)
      ids.add((await request('/v1/pets', { headers: { Authorization: 'Bearer k' } })).headers.get('x-request-id'))
    expect(ids.size).toBe(5)
  })

  it.each([
    ['too long', 'a'.repeat(maxRequestIdLength + 1)],
    ['a space', 'two words'],
    ['a quote', 'id"injected'],
    ['a semicolon', 'a;b'],
    ['non-ASCII', 'café'],
    ['empty', ''],
  ])('replaces an id with %s by one it makes', async (_, id) => {
    const { request } = await listening('json')
    const res = await request('/v1/pets', { headers: { 'X-Request-Id': id, Authorization: 'Bearer k' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-request-id')).toMatch(uuid)
  })

  it('is answered in process too (msw, app.request: no socket), on /v1 and /__admin', async () => {
    const app = createApp({ tenants: exampleTenants(), apiKeys: ['k'] })
    for (const path of ['/v1/pets', '/sessions/team-a-1/v1/pets/1', '/__admin/requests', '/__admin/nowhere']) {
      const echoed = await app.request(path, { headers: { 'X-Request-Id': 'in-process-1', Authorization: 'Bearer k' } })
      expect(echoed.headers.get('x-request-id'), path).toBe('in-process-1')
      expect((await app.request(path)).headers.get('x-request-id'), path).toMatch(uuid)
    }
  })

  it('takes an id of the longest length', async () => {
    const { request } = await listening('json')
    const id = 'a'.repeat(maxRequestIdLength)
    expect((await request('/v1/pets', { headers: { 'X-Request-Id': id } })).headers.get('x-request-id')).toBe(id)
  })
})

describe('structured log lines (--log json)', () => {
  it('a /v1 request: message and every field, its session and tenant', async () => {
    const { request, records } = await listening('json')
    const res = await request('/sessions/team-a-1/v1/pets/1', {
      headers: { Authorization: 'Bearer key-a-1', 'X-Request-Id': 'trace-me-1' },
    })
    expect(res.status).toBe(200)
    const line = records().find((r) => r['requestId'] === 'trace-me-1')
    expect(line).toMatchObject({
      level: 'info',
      message: 'GET /v1/pets/1 → 200',
      method: 'GET',
      path: '/v1/pets/1',
      status: 200,
      requestId: 'trace-me-1',
      client: '127.0.0.1',
      tenant: 'team-a',
      token: keyFingerprint('key-a-1'),
      session: 'team-a-1',
      action: 'getPet',
      outcome: 'ok',
    })
    expect(JSON.stringify(records())).not.toContain('key-a-1')
  })

  it('a request of no tenant carries its session and no tenant field', async () => {
    const { request, records } = await listening('json')
    await request('/v1/pets', { headers: { Authorization: 'Bearer k', 'X-Request-Id': 'plain' } })
    const line = records().find((r) => r['requestId'] === 'plain')!
    expect(line).toMatchObject({ session: 'default', action: 'listPets', outcome: 'ok' })
    expect(line).not.toHaveProperty('tenant')
  })

  it('a refusal: the outcome is the Error body’s code', async () => {
    const { request, records } = await listening('json')
    await request('/sessions/team-b-1/v1/pets', { headers: { 'X-Request-Id': 'refused-1' } })
    expect(records().find((r) => r['requestId'] === 'refused-1')).toMatchObject({
      status: 401,
      tenant: 'team-b',
      session: 'team-b-1',
      action: 'listPets',
      outcome: 'unauthorized',
      client: '127.0.0.1',
    })
  })

  it('an admin change and an admin refusal: the audit line’s text, and its fields beside it', async () => {
    const { request, records } = await listening('json')
    const reset = await request('/sessions/team-a-1/__admin/reset', {
      method: 'POST',
      headers: { Authorization: 'Bearer root-1', 'X-Request-Id': 'admin-1' },
    })
    expect(reset.status).toBe(204)
    await request('/sessions/team-b-2/__admin/reset', {
      method: 'POST',
      headers: { Authorization: 'Bearer guess', 'X-Request-Id': 'admin-2' },
    })
    const audit = records().filter(
      (r) => typeof r['message'] === 'string' && (r['message'] as string).startsWith('admin '),
    )
    expect(audit).toHaveLength(2)
    expect(audit[0]).toMatchObject({
      level: 'info',
      message: `admin POST /__admin/reset session=team-a-1 scope="all" token=${keyFingerprint('root-1')} → 204`,
      requestId: 'admin-1',
      client: '127.0.0.1',
      tenant: 'team-a',
      token: keyFingerprint('root-1'),
      session: 'team-a-1',
      action: 'POST /__admin/reset',
      outcome: 'ok',
    })
    expect(audit[1]).toMatchObject({
      requestId: 'admin-2',
      tenant: 'team-b',
      token: keyFingerprint('guess'),
      session: 'team-b-2',
      action: 'POST /__admin/reset',
      outcome: 'unauthorized',
    })
    // The request lines of the same two requests carry the same id.
    const requestLines = records().filter((r) => r['path'] === '/__admin/reset')
    expect(requestLines.map((r) => [r['requestId'], r['outcome'], r['tenant']])).toEqual([
      ['admin-1', 'ok', 'team-a'],
      ['admin-2', 'unauthorized', 'team-b'],
    ])
    expect(JSON.stringify(records())).not.toMatch(/root-1|guess"/)
  })
})

describe('--log pretty', () => {
  it('shows the same fields, readably, one line per request', async () => {
    const { request, lines } = await listening('pretty')
    await request('/sessions/team-a-1/v1/pets', { headers: { Authorization: 'Bearer key-a-1', 'X-Request-Id': 'p-1' } })
    const line = lines.find((l) => l.includes('requestId=p-1'))!
    expect(line).toMatch(
      /GET {4}\/v1\/pets .*200.* ms \[team-a-1\] requestId=p-1 client=127\.0\.0\.1 tenant=team-a token=sha256:[0-9a-f]{12} action=listPets outcome=ok\n$/,
    )
    expect(line.split('\n')).toHaveLength(2)
  })

  it('writes control characters in a value as escapes: a value never starts a line', () => {
    const lines: string[] = []
    const logger = createLogger('pretty', { write: (text) => lines.push(text) })
    logger.info!('admin POST /x\nFAKE line', { session: 'a\nb', action: 'GET /\u001b[31mred', outcome: 'ok\u2028x' })
    expect(lines).toHaveLength(1)
    expect(lines[0]!.split('\n')).toEqual([expect.stringContaining('FAKE line'), ''])
    expect(lines[0]).not.toContain('\u001b')
    expect(lines[0]).toContain('session=a\\u000ab')
    expect(printable('tab\there')).toBe('tab\\u0009here')
  })
})

describe('every format, every kind of line (issue 40 §2)', () => {
  // A terminal acts on C0 (but the line end the logger writes), DEL and C1; U+2028 ends a line for some readers.
  // eslint-disable-next-line no-control-regex
  const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/
  const hostile = 'x\nFAKE\r\u001b[2J\u009b31m\u2028y'
  const colours = /\x1b\[(?:3[1-3]|0)m/g

  it.each(['pretty', 'json'] as const)(
    '%s: a request, a warning, an info and an error line each stay one line',
    (format) => {
      const lines: string[] = []
      const logger = createLogger(format, { write: (text) => lines.push(text) })
      logger.request!({ method: 'GET', path: `/v1/${hostile}`, status: 404, ms: 1, session: hostile, client: hostile })
      logger.warn(`deprecated; called by ${hostile}`)
      logger.info!(`admin GET ${hostile}`, { action: hostile, token: hostile })
      logger.error(`failed ${hostile}`, new Error(`boom ${hostile}`))
      expect(lines).toHaveLength(4)
      for (const line of lines) {
        const text = line.replace(colours, '')
        expect(text).not.toMatch(raw)
        if (format === 'json') {
          expect(text.split('\n')).toHaveLength(2)
          expect(JSON.stringify(JSON.parse(text))).toContain('FAKE')
        } else {
          // An error's stack follows its line, each of its lines indented: none starts as a log line does.
          for (const next of text.split('\n').slice(1)) expect(next).toMatch(/^(?: {2}.*)?$/)
        }
      }
    },
  )

  it.each(['pretty', 'json'] as const)('%s: a 15 KB path and value are cut, with their length', (format) => {
    const lines: string[] = []
    const logger = createLogger(format, { write: (text) => lines.push(text) })
    const path = `/v1/pets/${'a'.repeat(15_000)}`
    logger.request!({ method: 'GET', path, status: 404, ms: 1, action: 'b'.repeat(15_000) })
    logger.warn('c'.repeat(15_000))
    expect(lines.join('').length).toBeLessThan(3_000)
    expect(lines[0]).toContain(`${'a'.repeat(maxLoggedValue - 9)}…[${path.length} chars]`)
    expect(lines[0]).toContain(`…[15000 chars]`)
    expect(lines[1]).toContain(`…[15000 chars]`)
  })

  it('loggable keeps a short value as it is, escapes it, and cuts a long one', () => {
    expect(loggable('/v1/pets')).toBe('/v1/pets')
    expect(loggable('a\nb')).toBe('a\\u000ab')
    expect(loggable('abcdef', 3)).toBe('abc…[6 chars]')
  })
})
