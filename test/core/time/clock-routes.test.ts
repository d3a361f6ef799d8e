import { describe, expect, it, vi } from 'vitest'
import { adminJson, inSession } from '../../helpers/admin.js'
import { contractApp } from '../../helpers/contract.js'
import { fakeDateAt } from '../../helpers/fake-date.js'
import { bearer } from '../../helpers/auth.js'

const real = Date.parse('2026-06-01T12:00:00Z')
const iso = (ms: number) => new Date(ms).toISOString()
const mock = Date.parse('2030-12-04T23:59:00Z')

fakeDateAt(real)

const clockOf = async (request: ReturnType<typeof contractApp>['request'], session?: string) =>
  (await request('/__admin/clock', session === undefined ? {} : { headers: inSession(session) })).json()

describe('GET, PUT and DELETE /__admin/clock', () => {
  it('starts at real time', async () => {
    const { request } = contractApp()
    expect(await clockOf(request)).toEqual({ now: iso(real), frozen: false, real: true })
  })

  it('PUT now: that instant, then advancing; frozen: standing still; DELETE: real time again', async () => {
    const { request } = contractApp()
    const put = await request('/__admin/clock', adminJson({ now: '2030-12-04T23:59:00Z' }))
    expect(put.status).toBe(200)
    expect(await put.json()).toEqual({ now: iso(mock), frozen: false, real: false })
    vi.setSystemTime(real + 5000)
    expect(await clockOf(request)).toEqual({ now: iso(mock + 5000), frozen: false, real: false })

    await request('/__admin/clock', adminJson({ now: '2030-12-04T23:59:00Z', frozen: true }))
    vi.setSystemTime(real + 60_000)
    expect(await clockOf(request)).toEqual({ now: iso(mock), frozen: true, real: false })

    const back = await request('/__admin/clock', { method: 'DELETE' })
    expect(back.status).toBe(200)
    expect(await back.json()).toEqual({ now: iso(real + 60_000), frozen: false, real: true })
  })

  it('PUT frozen alone stops or restarts the clock where it stands', async () => {
    const { request } = contractApp({ clock: iso(mock) })
    vi.setSystemTime(real + 1000)
    expect(await (await request('/__admin/clock', adminJson({ frozen: true }))).json()).toEqual({
      now: iso(mock + 1000),
      frozen: true,
      real: false,
    })
    vi.setSystemTime(real + 10_000)
    await request('/__admin/clock', adminJson({ frozen: false }))
    vi.setSystemTime(real + 12_000)
    expect(await clockOf(request)).toEqual({ now: iso(mock + 3000), frozen: false, real: false })
  })

  it.each([
    [
      { now: '2030-13-01T00:00:00Z' },
      'now must be an ISO 8601 instant with a time zone, e.g. 2030-12-05T00:00:00Z (got "2030-13-01T00:00:00Z").',
    ],
    [
      { now: '2030-12-05' },
      'now must be an ISO 8601 instant with a time zone, e.g. 2030-12-05T00:00:00Z (got "2030-12-05").',
    ],
    [
      { now: '2030-12-05T00:00:00' },
      'now must be an ISO 8601 instant with a time zone, e.g. 2030-12-05T00:00:00Z (got "2030-12-05T00:00:00").',
    ],
    [
      { now: 'yesterday' },
      'now must be an ISO 8601 instant with a time zone, e.g. 2030-12-05T00:00:00Z (got "yesterday").',
    ],
    [
      { now: 1924387200000 },
      'now must be an ISO 8601 instant with a time zone, e.g. 2030-12-05T00:00:00Z (got 1924387200000).',
    ],
    [{ now: null }, 'now must be an ISO 8601 instant with a time zone, e.g. 2030-12-05T00:00:00Z (got null).'],
    // The case: accepted before, it read back as +010000-… and broke snapshots.
    [
      { now: '9999-12-31T23:59:59.999-23:59', frozen: true },
      'now must be between 0000-01-01T00:00:00.000Z and 8999-12-31T23:59:59.999Z (got "9999-12-31T23:59:59.999-23:59").',
    ],
    [
      { now: '9000-01-01T00:00:00Z' },
      'now must be between 0000-01-01T00:00:00.000Z and 8999-12-31T23:59:59.999Z (got "9000-01-01T00:00:00Z").',
    ],
    [
      { now: '8999-12-31T23:59:59.999-00:01' },
      'now must be between 0000-01-01T00:00:00.000Z and 8999-12-31T23:59:59.999Z (got "8999-12-31T23:59:59.999-00:01").',
    ],
    [
      { now: '0000-01-01T00:00:00+00:01' },
      'now must be between 0000-01-01T00:00:00.000Z and 8999-12-31T23:59:59.999Z (got "0000-01-01T00:00:00+00:01").',
    ],
    [{ now: '2030-12-05T00:00:00Z', frozen: 'yes' }, 'frozen must be true or false (got "yes").'],
    [{ frozen: 1 }, 'frozen must be true or false (got 1).'],
    [{}, 'now or frozen is required: { "now"?: "<instant>", "frozen"?: boolean }.'],
    [
      { now: '2030-12-05T00:00:00Z', at: 1 },
      'at is not a known field; expected { "now"?: "<instant>", "frozen"?: boolean }.',
    ],
    [['2030-12-05T00:00:00Z'], 'The body must be { "now"?: "<instant>", "frozen"?: boolean }.'],
    ['"2030-12-05T00:00:00Z"', 'The body must be { "now"?: "<instant>", "frozen"?: boolean }.'],
    ['{"now":', "Request body is not valid JSON: Object value expected after ':' at position 7"],
  ])('PUT %j → 400 naming the field; the clock is unchanged', async (body, message) => {
    const { request } = contractApp()
    const res = await request('/__admin/clock', adminJson(body))
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ code: 'bad_request', message, status: 400 })
    expect(await clockOf(request)).toEqual({ now: iso(real), frozen: false, real: true })
  })

  it('PUT without a JSON content type → 415', async () => {
    const { request } = contractApp()
    const res = await request('/__admin/clock', { method: 'PUT', body: '{"now":"2030-12-05T00:00:00Z"}' })
    expect(res.status).toBe(415)
  })
})

describe('the clock’s range', () => {
  it.each([
    ['0000-01-01T00:00:00Z', '0000-01-01T00:00:00.000Z'],
    ['0000-01-01T00:00:00-00:01', '0000-01-01T00:01:00.000Z'],
    ['8999-12-31T23:59:59.999Z', '8999-12-31T23:59:59.999Z'],
    ['8999-12-31T23:59:59.999+23:59', '8999-12-31T00:00:59.999Z'],
  ])('PUT now %s at an end of the range is accepted and reads back as %s', async (now, shown) => {
    const { request } = contractApp()
    const res = await request('/__admin/clock', adminJson({ now, frozen: true }))
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ now: shown, frozen: true, real: false })
  })

  it('an advancing clock stops at 9999-12-31T23:59:59.999Z instead of leaving the range (the host clock jumped)', async () => {
    const { request } = contractApp()
    await request('/__admin/clock', adminJson({ now: '8999-12-31T23:59:59.999Z' }))
    vi.setSystemTime(real + 2000 * 365.25 * 86_400_000)
    expect(await clockOf(request)).toEqual({ now: '9999-12-31T23:59:59.999Z', frozen: false, real: false })
    const snapshot = await (await request('/__admin/snapshot', { headers: { Accept: 'application/json' } })).json()
    expect(snapshot.clock).toEqual({ now: '9999-12-31T23:59:59.999Z', frozen: false })
    const put = await request('/__admin/snapshot', adminJson(snapshot))
    expect(put.status).toBe(204)
    vi.setSystemTime(real - 20_000 * 365.25 * 86_400_000)
    expect(await clockOf(request)).toEqual({ now: '0000-01-01T00:00:00.000Z', frozen: false, real: false })
  })

  it.each([
    [
      '9000-01-01T00:00:00Z',
      'clock must be between 0000-01-01T00:00:00.000Z and 8999-12-31T23:59:59.999Z (got "9000-01-01T00:00:00Z")',
    ],
    [
      new Date(Date.parse('0000-01-01T00:00:00Z') - 1),
      'clock must be between 0000-01-01T00:00:00.000Z and 8999-12-31T23:59:59.999Z (got "-000001-12-31T23:59:59.999Z")',
    ],
  ])('createApp({ clock: %j }) throws a TypeError naming the range', (clock, message) => {
    expect(() => contractApp({ clock })).toThrow(new TypeError(message))
  })
})

describe('clocks and sessions', () => {
  it('each session has its own clock; setting one leaks into no other', async () => {
    const { request } = contractApp()
    await request('/__admin/clock', adminJson({ now: iso(mock), frozen: true }, 'PUT', 'a'))
    expect((await clockOf(request, 'a')).now).toBe(iso(mock))
    expect((await clockOf(request)).now).toBe(iso(real))
    // Reads create no session (issue 28): b is created first.
    expect((await request('/__admin/sessions/b', { method: 'POST' })).status).toBe(201)
    expect((await clockOf(request, 'b')).now).toBe(iso(real))
  })

  it('the start-up clock (--clock) advances for every session, also ones created later; reset restores it', async () => {
    const { request } = contractApp({ clock: iso(mock) })
    expect(await clockOf(request)).toEqual({ now: iso(mock), frozen: false, real: false })
    vi.setSystemTime(real + 10_000)
    expect((await request('/__admin/sessions/later', { method: 'POST' })).status).toBe(201)
    expect((await clockOf(request, 'later')).now).toBe(iso(mock + 10_000))
    await request('/__admin/clock', { method: 'DELETE', headers: inSession('later') })
    expect((await clockOf(request, 'later')).real).toBe(true)
    await request('/__admin/reset', { method: 'POST', headers: inSession('later') })
    expect(await clockOf(request, 'later')).toEqual({ now: iso(mock + 10_000), frozen: false, real: false })
  })

  it('is behind the admin token like the rest of /__admin', async () => {
    const { request } = contractApp({ adminToken: 'adm' })
    expect((await request('/__admin/clock')).status).toBe(401)
    expect((await request('/__admin/clock', adminJson({ frozen: true }))).status).toBe(401)
    expect((await request('/__admin/clock', { headers: bearer('adm') })).status).toBe(200)
    expect((await clockOf(request)).frozen).toBeUndefined()
  })
})
