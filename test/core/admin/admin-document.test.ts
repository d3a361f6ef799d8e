import { Validator } from '@seriousme/openapi-schema-validator'
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../../src/core/app.js'
import { coverageSchema } from '../../../src/core/coverage/coverage-schema.js'
import { assertAdminDocument } from '../../helpers/admin-document.js'
import { contractApp } from '../../helpers/contract.js'
import { bearer } from '../../helpers/auth.js'

// Issue 31 §4: the control plane described once, in OpenAPI 3.1 (admin-openapi.yaml), served at
// GET /__admin/openapi.json, shipped in the package; it cannot drift from the routes: every /__admin
// answer of the suites is checked against it (contractApp, test/helpers/admin-document.ts), its
// routes are the app's, and the query parameters it lists are the only ones a route takes.
const root = new URL('../../../', import.meta.url)
const read = (path: string) => readFileSync(new URL(path, root), 'utf8')
const document = parse(read('admin-openapi.yaml'))
const version: string = JSON.parse(read('package.json')).version

const methods = ['get', 'put', 'post', 'delete', 'patch']
const documented = (): string[] =>
  Object.entries(document.paths as Record<string, Record<string, unknown>>)
    .flatMap(([path, item]) => methods.filter((m) => item[m] !== undefined).map((m) => `${m.toUpperCase()} ${path}`))
    .sort()

describe('admin-openapi.yaml', () => {
  it('is a valid OpenAPI 3.1 document (a real validator)', async () => {
    const result = await new Validator().validate(document)
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
    expect(document.openapi).toBe('3.1.0')
  })

  it('describes every /__admin route the app has, the panel and its redirect included, and no other', () => {
    const app = createApp({ observe: { metrics: async () => ({ contentType: 'text/plain', body: '' }) } })
    const routes = app.routes
      .filter((r) => r.method !== 'ALL' && r.path.startsWith('/__admin'))
      .map((r) => `${r.method} ${r.path.replace(/:([^/]+)/g, '{$1}')}`)
    expect([...new Set(routes)].sort()).toEqual(documented())
  })

  it('is served at GET /__admin/openapi.json, with the package version, behind the admin token', async () => {
    const { request } = contractApp({ adminToken: 'secret' })
    expect((await request('/__admin/openapi.json')).status).toBe(401)
    const res = await request('/__admin/openapi.json', { headers: bearer('secret') })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ ...document, info: { ...document.info, version } })
  })

  it('describes the coverage report with the very schema the package exports (coverageSchema)', () => {
    const { $schema: _draft, title: _title, ...exported } = coverageSchema
    expect(document.components.schemas.CoverageReport).toEqual(JSON.parse(JSON.stringify(exported)))
  })

  it('is shipped in the package, next to openapi.yaml', () => {
    expect(JSON.parse(read('package.json')).files).toEqual(
      expect.arrayContaining(['openapi.yaml', 'admin-openapi.yaml']),
    )
  })
})

describe('the query parameters it lists are the only ones', () => {
  it.each([
    [
      'GET',
      '/__admin/faults?operation=listPets',
      'Unknown query parameter operation for GET /__admin/faults; it takes none.',
    ],
    [
      'DELETE',
      '/__admin/requests?status=200',
      'Unknown query parameter status for DELETE /__admin/requests; it takes none.',
    ],
    ['GET', '/__admin/state?x=1&y=2', 'Unknown query parameter x for GET /__admin/state; it takes none.'],
    [
      'GET',
      '/__admin/requests.har?count=1',
      'Unknown query parameter count for GET /__admin/requests.har; it takes operation, status, method, path, since, until, after, limit.',
    ],
  ])('%s %s: 400 naming it', async (method, url, message) => {
    const { request } = contractApp()
    const res = await request(url, { method })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ code: 'bad_request', message, status: 400 })
  })

  it('leaves health, its probes and the panel files alone (probes and caches add what they like)', async () => {
    const { request } = contractApp()
    expect((await request('/__admin/health?probe=1')).status).toBe(200)
    expect((await request('/__admin/health/live?x=1')).status).toBe(200)
    expect((await request('/__admin/?v=2')).status).toBe(200)
  })
})

describe('the check every admin answer goes through (assertAdminDocument)', () => {
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

  it('fails on an undocumented status, a body off its schema, an error without the Error body', async () => {
    await expect(assertAdminDocument('POST', '/__admin/faults', json({ id: 1 }, 200))).rejects.toThrow(
      /does not document/,
    )
    await expect(assertAdminDocument('GET', '/__admin/requests', json({ requests: [] }))).rejects.toThrow(
      /breaks admin-openapi.yaml/,
    )
    await expect(assertAdminDocument('GET', '/__admin/clock', json({ now: 1 }))).rejects.toThrow(/breaks/)
    await expect(assertAdminDocument('GET', '/__admin/state', json({ error: 'x' }, 500))).rejects.toThrow(/breaks/)
  })

  it('passes what the document says', async () => {
    await expect(
      assertAdminDocument('GET', '/__admin/requests', json({ requests: [], next: 0, dropped: 0 })),
    ).resolves.toBeUndefined()
    await expect(
      assertAdminDocument(
        'GET',
        '/__admin/requests',
        json({ code: 'request_timeout', message: 'm', status: 408 }, 408),
      ),
    ).resolves.toBeUndefined()
  })
})
