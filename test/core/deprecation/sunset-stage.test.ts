import { describe, expect, it, vi } from 'vitest'
import type { AppOptions } from '../../../src/index.js'
import { adminJson, inSession } from '../../helpers/admin.js'
import { auth, contractApp, postJson } from '../../helpers/contract.js'
import { fakeDateAt } from '../../helpers/fake-date.js'
import { onePet } from '../../helpers/fixtures.js'

const pets = onePet({ status: 'sold' })
const real = Date.parse('2026-06-01T12:00:00Z')
const sunset = Date.parse('2030-12-05T00:00:00Z')
const at = (ms: number) => new Date(ms).toISOString()

const gone = {
  code: 'gone',
  message: 'getPet (GET /v1/pets/{petId}) was removed on 2030-12-05; use GET /v1/pets?status={status} instead.',
  status: 410,
}
const lifecycleHeaders = {
  deprecation: '@0',
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  link: '</v1/pets>; rel="successor-version"',
}
const headersOf = (res: Response) => ({
  deprecation: res.headers.get('deprecation'),
  sunset: res.headers.get('sunset'),
  link: res.headers.get('link'),
})

fakeDateAt(real)

type Case = [name: string, status: 200 | 410, options: AppOptions, put: object | undefined, realMsLater: number]

const cases: Case[] = [
  ['real time (2026)', 200, {}, undefined, 0],
  ['frozen 1 ms before', 200, {}, { now: at(sunset - 1), frozen: true }, 60_000],
  ['frozen at the instant', 410, {}, { now: at(sunset), frozen: true }, 0],
  ['frozen a year after', 410, {}, { now: '2031-12-05T00:00:00Z', frozen: true }, 0],
  ['frozen at the instant, written with an offset', 410, {}, { now: '2030-12-05T01:00:00+01:00', frozen: true }, 0],
  ['advancing from 1 s before, 999 ms later', 200, {}, { now: at(sunset - 1000) }, 999],
  ['advancing from 1 s before, 1 s later', 410, {}, { now: at(sunset - 1000) }, 1000],
  ['start-up clock 1 min before, 59 s later', 200, { clock: at(sunset - 60_000) }, undefined, 59_000],
  ['start-up clock 1 min before, 1 min later', 410, { clock: at(sunset - 60_000) }, undefined, 60_000],
  ['start-up clock frozen after', 410, { clock: { now: at(sunset + 1), frozen: true } }, undefined, 0],
  ['start-up clock after, sunset ignored', 200, { clock: at(sunset), sunset: 'ignore' }, undefined, 0],
  ['moved after, sunset ignored', 200, { sunset: 'ignore' }, { now: at(sunset), frozen: true }, 0],
]

describe('the getPet sunset on the mock clock', () => {
  it.each(cases)('%s → %i', async (_, status, options, put, later) => {
    const { request } = contractApp({ pets, ...options })
    if (put) expect((await request('/__admin/clock', adminJson(put))).status).toBe(200)
    vi.setSystemTime(real + later)
    const res = await request('/v1/pets/1', { headers: auth() })
    expect(res.status).toBe(status)
    expect(headersOf(res)).toEqual(lifecycleHeaders)
    expect(await res.json()).toEqual(status === 410 ? gone : pets[0])
  })

  it('only getPet is removed: listPets and createPet go on', async () => {
    const { request } = contractApp({ pets, clock: at(sunset) })
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(200)
    expect((await request('/v1/pets', postJson({ name: 'b', categoryId: 1 }))).status).toBe(201)
  })

  it.each([
    ['no token', 401, '/v1/pets/1', {}],
    ['a wrong key', 401, '/v1/pets/1', auth({}, 'wrong')],
    ['a right key, absent pet', 410, '/v1/pets/99', auth({}, 'k')],
    ['a right key, malformed id', 410, '/v1/pets/abc', auth({}, 'k')],
  ])('authentication comes first, validation after: %s → %i', async (_, status, url, headers) => {
    const { request } = contractApp({ pets, apiKeys: ['k'], clock: at(sunset) })
    const res = await request(url, { headers })
    expect(res.status).toBe(status)
    expect(headersOf(res)).toEqual(lifecycleHeaders)
  })

  it('per session: one session past the sunset leaks into no other; reset brings the start-up clock back', async () => {
    const { request } = contractApp({ pets })
    await request('/__admin/clock', adminJson({ now: at(sunset), frozen: true }, 'PUT', 'later'))
    const get = async (session: string) => (await request('/v1/pets/1', { headers: auth(inSession(session)) })).status
    expect([await get('later'), await get('default'), await get('fresh')]).toEqual([410, 200, 200])
    await request('/__admin/reset', { method: 'POST', headers: inSession('later') })
    expect(await get('later')).toBe(200)
  })

  it('a 410 changes nothing and never reads the store', async () => {
    const { request } = contractApp({ pets, clock: at(sunset) })
    const before = await (await request('/__admin/state')).json()
    for (let i = 0; i < 3; i++) expect((await request('/v1/pets/1', { headers: auth() })).status).toBe(410)
    expect(await (await request('/__admin/state')).json()).toEqual(before)
    expect((await request('/v1/pets', postJson({ name: 'b', categoryId: 1 }))).headers.get('location')).toBe(
      '/v1/pets/2',
    )
  })

  it.each([
    ['Prefer: code=410', '/v1/pets/1', { Prefer: 'code=410' }],
    ['__code=410', '/v1/pets/1?__code=410', {}],
  ])('%s forces the same 410 before the sunset, without moving the clock', async (_, url, headers) => {
    const { request } = contractApp({ pets })
    const res = await request(url, { headers: auth(headers) })
    expect(res.status).toBe(410)
    expect(headersOf(res)).toEqual(lifecycleHeaders)
    expect(await res.json()).toEqual(gone)
    expect((await (await request('/__admin/clock')).json()).real).toBe(true)
    expect((await request('/v1/pets/1', { headers: auth() })).status).toBe(200)
  })

  it('410 is not a status listPets or createPet can be forced to', async () => {
    const { request } = contractApp({ pets })
    const res = await request('/v1/pets', { headers: auth({ Prefer: 'code=410' }) })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({
      code: 'invalid_mock_control',
      message: 'code must be one of 200, 401, 429, 500, 502, 503, 504 for listPets (got "410").',
    })
  })

  it('a fault rule with status 410 on getPet answers the same 410', async () => {
    const { request } = contractApp({ pets })
    await request('/__admin/faults', adminJson({ operation: 'getPet', status: 410, times: 1 }, 'POST'))
    const res = await request('/v1/pets/1', { headers: auth() })
    expect(await res.json()).toEqual(gone)
  })
})
