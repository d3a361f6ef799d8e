import { readFileSync } from 'node:fs'
import { Ajv } from 'ajv'
import { describe, expect, it } from 'vitest'
import { coverageSchema } from '../../../src/core/coverage/coverage-schema.js'
import type { CoverageReport } from '../../../src/core/coverage/coverage-report.js'
import { parseSpec } from '../../../src/index.js'
import { adminJson, inSession } from '../../helpers/admin.js'
import { auth, contractApp, postJson } from '../../helpers/contract.js'
import { bearer } from '../../helpers/auth.js'

const validate = new Ajv({ allErrors: true, strict: true }).compile(coverageSchema)
type Request = (url: string, init?: RequestInit) => Promise<Response>

/** GET /__admin/coverage (in `session`), checked against the shipped schema. */
const coverageOf = async (request: Request, session?: string): Promise<CoverageReport> => {
  const res = await request('/__admin/coverage', session ? { headers: inSession(session) } : {})
  expect(res.status).toBe(200)
  const report = (await res.json()) as CoverageReport
  expect(validate(report), JSON.stringify(validate.errors)).toBe(true)
  return report
}

const row = (report: CoverageReport, operation: string, status: number) =>
  report.responses.find((r) => r.operation === operation && r.status === status)
const input = (report: CoverageReport, operation: string, name: string, cls: string) =>
  report.inputs.find((i) => i.operation === operation && i.name === name && i.class === cls)
const covered = (report: CoverageReport) =>
  report.responses.filter((r) => r.documented && r.covered).map((r) => `${r.operation} ${r.status}`)
const uncovered = (report: CoverageReport) =>
  report.responses.filter((r) => r.documented && !r.covered).map((r) => `${r.operation} ${r.status}`)

describe('GET /__admin/coverage', () => {
  it('lists every documented response of openapi.yaml, none covered at start: 8 for this contract', async () => {
    const { request } = contractApp()
    const report = await coverageOf(request)
    expect(report).toMatchObject({ session: 'default', covered: 0, total: 8, percent: 0, requests: 0 })
    expect(report.responses.map((r) => `${r.operation} ${r.status}`)).toEqual([
      'listPets 200',
      'listPets 401',
      'createPet 201',
      'createPet 400',
      'createPet 401',
      'getPet 200',
      'getPet 401',
      'getPet 404',
    ])
    expect(report.responses.every((r) => r.documented && r.requests === 0 && r.injected === 0)).toBe(true)
  })

  it('derives the total from the contract: a status documented more is one more response', async () => {
    const text = readFileSync(new URL('../../../openapi.yaml', import.meta.url), 'utf8').replace(
      "        '400':\n          $ref: '#/components/responses/BadRequest'\n",
      "        '400':\n          $ref: '#/components/responses/BadRequest'\n        '409':\n          $ref: '#/components/responses/BadRequest'\n",
    )
    const { request } = contractApp({ spec: parseSpec(text) })
    const report = await coverageOf(request)
    expect(report.total).toBe(9)
    expect(row(report, 'createPet', 409)).toMatchObject({ documented: true, covered: false })
  })

  it('a suite that gets listPets 200 and createPet 201 and 400 covers exactly those 3 of 8; a 401 counts nothing', async () => {
    const { request } = contractApp()
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(200)
    // Authentication first (issue 39): a request whose credentials fail changes nothing, coverage included.
    expect((await request('/v1/pets')).status).toBe(401)
    expect((await request('/v1/pets', postJson({ name: 'Rex', categoryId: 1 }))).status).toBe(201)
    expect((await request('/v1/pets', postJson({ name: 'Rex' }))).status).toBe(400)
    const report = await coverageOf(request)
    expect(report).toMatchObject({ covered: 3, total: 8, percent: 37.5, requests: 3 })
    expect(covered(report)).toEqual(['listPets 200', 'createPet 201', 'createPet 400'])
    expect(uncovered(report)).toEqual(['listPets 401', 'createPet 401', 'getPet 200', 'getPet 401', 'getPet 404'])
  })

  it("a second session's requests do not change the first session's report", async () => {
    const { request } = contractApp()
    await request('/v1/pets', { headers: auth() })
    const before = await coverageOf(request)
    for (const url of ['/v1/pets/1', '/v1/pets/999', '/v1/pets']) {
      await request(url, { headers: inSession('other', auth()) })
    }
    await request('/v1/pets/1', { headers: inSession('other') })
    expect(await coverageOf(request)).toEqual(before)
    const other = await coverageOf(request, 'other')
    // The request without a key changed nothing (authentication first, issue 39).
    expect(other).toMatchObject({ session: 'other', covered: 3, requests: 3 })
    expect(covered(other)).toEqual(['listPets 200', 'getPet 200', 'getPet 404'])
  })

  it('counts answers a fault rule or Prefer injected, and says how many were; statuses beyond the contract are listed apart', async () => {
    const { request } = contractApp()
    await request('/v1/pets/1', { headers: auth({ Prefer: 'code=404' }) })
    await request('/v1/pets/999?__code=404', { headers: auth() })
    await request('/v1/pets/999', { headers: auth() })
    await request('/__admin/faults', adminJson({ operation: 'createPet', status: 503, times: 1 }, 'POST'))
    expect((await request('/v1/pets', postJson({ name: 'Bo', categoryId: 1 }))).status).toBe(503)
    await request('/v1/pets?limit=0', { headers: auth() })
    await request('/v1/pets', { headers: auth({ Prefer: 'delay=1' }) })
    const report = await coverageOf(request)
    expect(row(report, 'getPet', 404)).toEqual({
      operation: 'getPet',
      status: 404,
      documented: true,
      requests: 3,
      injected: 2,
      covered: true,
    })
    // A delay alone injects nothing: the answer is the mock's own.
    expect(row(report, 'listPets', 200)).toMatchObject({ requests: 1, injected: 0 })
    const beyond = report.responses.filter((r) => !r.documented)
    expect(beyond).toEqual([
      { operation: 'listPets', status: 400, documented: false, requests: 1, injected: 0, covered: true },
      { operation: 'createPet', status: 503, documented: false, requests: 1, injected: 1, covered: true },
    ])
    // Only documented responses make the percentage.
    expect(report).toMatchObject({ covered: 2, total: 8, percent: 25, requests: 6 })
    // A missing pet is a missing pet only when the mock said so itself.
    expect(input(report, 'getPet', 'petId', 'missing')).toMatchObject({ requests: 1 })
  })

  it("counts a breaksContract rule's own answers on a row of their own, beyond the contract, covering nothing", async () => {
    const { app, request } = contractApp()
    const rule = {
      operation: 'listPets',
      status: 200,
      headers: { 'Content-Type': 'text/html' },
      body: '<html>staging</html>',
      breaksContract: true,
      times: 2,
    }
    expect((await request('/__admin/faults', adminJson(rule, 'POST'))).status).toBe(201)
    // app.request: these answers break the contract on purpose, which `request` would refuse.
    for (let i = 0; i < 2; i++) expect((await app.request('/v1/pets', { headers: auth() })).status).toBe(200)
    // A rule with an answer the contract allows is counted as any injected answer.
    await request('/__admin/faults', adminJson({ operation: 'getPet', status: 404, times: 1 }, 'POST'))
    expect((await request('/v1/pets/1', { headers: auth() })).status).toBe(404)
    const report = await coverageOf(request)
    expect(report.responses.filter((r) => r.operation === 'listPets')).toEqual([
      { operation: 'listPets', status: 200, documented: true, requests: 0, injected: 0, covered: false },
      {
        operation: 'listPets',
        status: 200,
        documented: false,
        requests: 2,
        injected: 2,
        covered: true,
        breaksContract: true,
      },
      { operation: 'listPets', status: 401, documented: true, requests: 0, injected: 0, covered: false },
    ])
    expect(row(report, 'getPet', 404)).toMatchObject({ documented: true, requests: 1, injected: 1, covered: true })
    expect(report).toMatchObject({ covered: 1, total: 8, requests: 3 })
  })

  it('lists a 429 of the rate limit and a 410 past the sunset as beyond the contract, not injected', async () => {
    const { request } = contractApp({ rateLimit: { limit: 1, windowSeconds: 60 } })
    await request('/v1/pets', { headers: auth() })
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(429)
    await request('/__admin/clock', adminJson({ now: '2031-01-01T00:00:00Z' }))
    expect((await request('/v1/pets/1', { headers: auth(bearer('other-key')) })).status).toBe(410)
    const report = await coverageOf(request)
    expect(row(report, 'listPets', 429)).toMatchObject({ documented: false, requests: 1, injected: 0 })
    expect(row(report, 'getPet', 410)).toMatchObject({ documented: false, requests: 1, injected: 0 })
  })

  it('counts the classes of input derived from the contract', async () => {
    const { request } = contractApp()
    const list = (query: string) => request(`/v1/pets${query}`, { headers: auth() })
    for (const query of ['', '?status=available', '?status=sold', '?limit=1', '?limit=100', '?limit=101', '?limit=20'])
      await list(query)
    await list('?limit=7&status=pending')
    await list('?limit=x')
    await request('/v1/pets', postJson({ name: 'Rex', categoryId: 1 }))
    await request('/v1/pets', postJson({ name: 'Rex', categoryId: 1, status: 'sold' }))
    await request('/v1/pets/1', { headers: auth() })
    const report = await coverageOf(request)
    const counts = Object.fromEntries(
      report.inputs.map((i) => [`${i.operation} ${i.in}:${i.name}=${i.class}`, [i.requests, i.covered]]),
    )
    expect(counts).toEqual({
      'listPets query:limit=default': [4, true],
      'listPets query:limit=minimum': [1, true],
      'listPets query:limit=maximum': [1, true],
      'listPets query:limit=within': [1, true],
      'listPets query:limit=beyond': [1, true],
      'listPets query:limit=invalid': [1, true],
      'listPets query:status=absent': [6, true],
      'listPets query:status=available': [1, true],
      'listPets query:status=pending': [1, true],
      'listPets query:status=sold': [1, true],
      'listPets query:status=invalid': [0, false],
      'createPet body:status=with': [1, true],
      'createPet body:status=without': [1, true],
      'getPet path:petId=existing': [1, true],
      'getPet path:petId=missing': [0, false],
    })
    expect(input(report, 'listPets', 'limit', 'maximum')!.description).toBe('limit=100, its maximum')
  })

  it('counts every request since the start, not only those the bounded journal keeps; concurrent ones exactly', async () => {
    const { request } = contractApp({ journalSize: 5 })
    // Concurrent: on Redis behind the load balancer, three replicas count into one session at once.
    await Promise.all(Array.from({ length: 60 }, () => request('/v1/pets?limit=1', { headers: auth() })))
    const report = await coverageOf(request)
    expect(row(report, 'listPets', 200)!.requests).toBe(60)
    expect(report.requests).toBe(60)
    const journal = (await (await request('/__admin/requests')).json()) as { requests: unknown[] }
    expect(journal.requests).toHaveLength(5)
  })

  it('a reset clears it with the journal; DELETE /__admin/coverage clears it alone', async () => {
    const { request } = contractApp()
    await request('/v1/pets', { headers: auth() })
    await request('/v1/pets', postJson({ name: 'Rex', categoryId: 1 }))
    expect((await coverageOf(request)).covered).toBe(2)
    expect((await request('/__admin/coverage', { method: 'DELETE' })).status).toBe(204)
    expect((await coverageOf(request)).requests).toBe(0)
    // The pet created is still there: only the counts went.
    expect(((await (await request('/__admin/state')).json()) as { pets: unknown[] }).pets).toHaveLength(13)
    await request('/v1/pets', { headers: auth() })
    expect((await coverageOf(request)).covered).toBe(1)
    expect((await request('/__admin/reset', { method: 'POST' })).status).toBe(204)
    expect(await coverageOf(request)).toMatchObject({ covered: 0, requests: 0 })
  })

  it('counts nothing for requests refused before a session was chosen, nor for admin calls', async () => {
    const { request } = contractApp()
    expect((await request('/v1/pets', { headers: auth({ 'X-Mock-Session': 'bad name!' }) })).status).toBe(400)
    await request('/__admin/state')
    await request('/v1/nowhere', { headers: auth() })
    expect((await coverageOf(request)).requests).toBe(0)
  })
})
