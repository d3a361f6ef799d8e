import { describe, expect, it, vi } from 'vitest'
import type { Logger } from '../../../src/index.js'
import { adminJson, inSession } from '../../helpers/admin.js'
import { auth, contractApp } from '../../helpers/contract.js'
import { fakeDateAt } from '../../helpers/fake-date.js'
import { onePet } from '../../helpers/fixtures.js'

const pets = onePet({ status: 'sold' })
const real = Date.parse('2026-06-01T12:00:00Z')
const iso = (ms: number) => new Date(ms).toISOString()

const capture = () => {
  const warnings: string[] = []
  const logger: Logger = { request() {}, error() {}, warn: (m) => warnings.push(m) }
  return { warnings, logger }
}
const report = async (request: (url: string, init?: RequestInit) => Promise<Response>, session?: string) =>
  (await (await request('/__admin/deprecations', session ? { headers: inSession(session) } : {})).json()).deprecations

const alice = auth({ 'User-Agent': 'shop-web/2.1' }, 'alice-token')
const bob = auth({ 'User-Agent': 'batch/1.0' }, 'bob-token-123')

fakeDateAt(real)

describe('GET /__admin/deprecations', () => {
  it('counts each authenticated client (token hint and User-Agent), whatever the answer, in real time', async () => {
    const { request } = contractApp({ pets })
    await request('/__admin/clock', adminJson({ now: '2031-01-01T00:00:00Z', frozen: true }))
    const calls: [Record<string, string>, string, number][] = [
      [alice, '/v1/pets/1', 0],
      [bob, '/v1/pets/99', 1000],
      [alice, '/v1/pets/1', 2000],
      // Authentication first (issue 39): a request without credentials is answered 401 and counts nothing.
      [{ 'User-Agent': 'curl/8.5.0' }, '/v1/pets/1', 3000],
    ]
    for (const [headers, url, ms] of calls) {
      vi.setSystemTime(real + ms)
      await request(url, { headers })
    }
    await request('/v1/pets', { headers: alice })
    expect(await report(request)).toEqual([
      {
        operation: 'getPet',
        sunset: '2030-12-05T00:00:00.000Z',
        replacement: 'GET /v1/pets?status={status}',
        calls: 3,
        firstSeen: iso(real),
        lastSeen: iso(real + 2000),
        clients: [
          {
            authorization: 'Bearer al…',
            userAgent: 'shop-web/2.1',
            calls: 2,
            firstSeen: iso(real),
            lastSeen: iso(real + 2000),
          },
          {
            authorization: 'Bearer bo…',
            userAgent: 'batch/1.0',
            calls: 1,
            firstSeen: iso(real + 1000),
            lastSeen: iso(real + 1000),
          },
        ],
        other: { calls: 0, lastSeen: null },
      },
    ])
  })

  it('counts calls answered by a fault rule and calls that waited for other store calls first, once each', async () => {
    const { request } = contractApp({ pets })
    const rule = await request('/__admin/faults', adminJson({ operation: 'getPet', status: 503, times: 1 }, 'POST'))
    expect(rule.status).toBe(201)
    expect((await request('/v1/pets/1', { headers: alice })).status).toBe(503)
    await request('/__admin/faults', adminJson({ operation: 'listPets', status: 500, times: 1 }, 'POST'))
    expect((await request('/v1/pets/1', { headers: alice })).status).toBe(200)
    expect((await request('/v1/pets/1', { headers: alice })).status).toBe(200)
    const [getPet] = await report(request)
    expect(getPet).toMatchObject({ operation: 'getPet', calls: 3, clients: [{ userAgent: 'shop-web/2.1', calls: 3 }] })
  })

  it('warns once per client and session, the first time, naming the date, the client and the replacement', async () => {
    const { warnings, logger } = capture()
    const { request } = contractApp({ pets, logger })
    for (const headers of [alice, alice, bob, alice, { ...alice, ...inSession('job') }]) {
      await request('/v1/pets/1', { headers })
    }
    expect(warnings).toEqual([
      'getPet is deprecated and will be removed on 2030-12-05; called by Bearer al… with User-Agent "shop-web/2.1" (session default); use GET /v1/pets?status={status} instead',
      'getPet is deprecated and will be removed on 2030-12-05; called by Bearer bo… with User-Agent "batch/1.0" (session default); use GET /v1/pets?status={status} instead',
      'getPet is deprecated and will be removed on 2030-12-05; called by Bearer al… with User-Agent "shop-web/2.1" (session job); use GET /v1/pets?status={status} instead',
    ])
  })

  it('survives journal rotation; a reset clears it (and the warnings start again)', async () => {
    const { warnings, logger } = capture()
    const { request } = contractApp({ pets, logger, journalSize: 2 })
    for (let i = 0; i < 5; i++) await request('/v1/pets/1', { headers: alice })
    await request('/v1/pets', { headers: alice })
    expect((await (await request('/__admin/requests?operation=getPet')).json()).requests).toHaveLength(1)
    expect((await report(request))[0]).toMatchObject({ calls: 5, clients: [{ calls: 5 }] })

    await request('/__admin/requests', { method: 'DELETE' })
    expect((await report(request))[0]).toMatchObject({ calls: 5 })

    await request('/__admin/reset', { method: 'POST' })
    expect((await report(request))[0]).toMatchObject({ calls: 0, firstSeen: null, clients: [] })
    await request('/v1/pets/1', { headers: alice })
    expect(warnings).toHaveLength(2)
  })

  it('is per session', async () => {
    const { request } = contractApp({ pets })
    await request('/v1/pets/1', { headers: { ...alice, ...inSession('job') } })
    expect((await report(request, 'job'))[0]).toMatchObject({ calls: 1 })
    expect((await report(request))[0]).toMatchObject({ calls: 0 })
  })

  it('keeps at most 1000 clients per operation; the rest are counted as other, with one warning', async () => {
    const { warnings, logger } = capture()
    const { app } = contractApp({ pets, logger })
    for (let i = 0; i < 1002; i++) {
      await app.request('/v1/pets/1', { headers: auth({ 'User-Agent': `client/${i}` }) })
    }
    const [getPet] = await report(async (url, init) => app.request(url, init))
    expect(getPet.calls).toBe(1002)
    expect(getPet.clients).toHaveLength(1000)
    expect(getPet.other).toEqual({ calls: 2, lastSeen: iso(real) })
    expect(warnings).toHaveLength(1001)
    expect(warnings[1000]).toBe(
      'getPet: more distinct clients than the report keeps in session default; further ones are counted as "other" and not logged',
    )
  })
})
