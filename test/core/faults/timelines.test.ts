import { describe, expect, it } from 'vitest'
import { maxTimelinePhases } from '../../../src/core/faults/timelines/timeline-check.js'
import { bearer } from '../../helpers/auth.js'
import { contractApp } from '../../helpers/contract.js'
import { maxTimelines } from '../../../src/core/faults/timelines/timeline-routes.js'
import { freezeAt, json, lastShaping, runIncident, stagingIncident, t0 } from '../../helpers/timeline-scenario.js'

const session = 'qa'
/**
 * An app whose every answer is checked against the contract: in memory here, on Redis, through nginx to
 * three replicas and through session path prefixes in the other projects (the contract suites).
 */
const checkedApp = () => {
  const { request } = contractApp()
  return { request }
}
const view = async (res: Response | Promise<Response>) => (await res).json() as Promise<Record<string, unknown>>

describe('fault timelines on the mock clock (memory store)', () => {
  it('the example, on a frozen clock advanced 0, 29, 31, 59, 61, 125 s, gives each phase its answer; GET names the phase', async () => {
    const app = checkedApp()
    await runIncident([app.request], session)
  })

  it('marks the answers it shapes in the journal and the HAR (timeline, phase, phase start); GET tells when the next phase begins', async () => {
    const app = checkedApp()
    await freezeAt(app.request, session, 0)
    expect(
      (await app.request('/__admin/timelines/staging-incident', json('PUT', stagingIncident, session))).status,
    ).toBe(201)
    await freezeAt(app.request, session, 45)
    const headers = { ...bearer(), 'X-Mock-Session': session }
    expect((await app.request('/v1/pets', { headers })).status).toBe(429)
    const mark = { name: 'staging-incident', phase: 1, phaseStart: new Date(t0 + 30_000).toISOString() }
    expect(await lastShaping(app.request, session)).toEqual([{ by: 'fault', status: 429, timeline: mark }])
    const har = (await (
      await app.request('/__admin/requests.har', { headers: { 'X-Mock-Session': session } })
    ).json()) as {
      log: { entries: { _shapedBy?: unknown }[] }
    }
    expect(har.log.entries.at(-1)?._shapedBy).toEqual([{ by: 'fault', status: 429, timeline: mark }])
    expect(await view(app.request('/__admin/timelines', { headers: { 'X-Mock-Session': session } }))).toMatchObject({
      now: new Date(t0 + 45_000).toISOString(),
      timelines: [
        {
          name: 'staging-incident',
          start: new Date(t0).toISOString(),
          state: 'running',
          current: { phase: 1, startedAt: mark.phaseStart, nextAt: new Date(t0 + 60_000).toISOString(), cycle: 0 },
        },
      ],
    })
    // Phase 2 applies to listPets only and shapes it by its delay.
    await freezeAt(app.request, session, 61)
    expect((await app.request('/v1/pets', { headers })).status).toBe(200)
    expect(await lastShaping(app.request, session)).toEqual([
      {
        by: 'fault',
        delayMs: 500,
        timeline: { name: 'staging-incident', phase: 2, phaseStart: new Date(t0 + 60_000).toISOString() },
      },
    ])
    // Fault rules are not where timelines are listed, and a DELETE of every rule leaves them.
    expect(await view(app.request('/__admin/faults', { headers: { 'X-Mock-Session': session } }))).toEqual({
      faults: [],
    })
    expect(
      (await app.request('/__admin/faults', { method: 'DELETE', headers: { 'X-Mock-Session': session } })).status,
    ).toBe(204)
    expect(
      (await app.request('/__admin/timelines/staging-incident', { headers: { 'X-Mock-Session': session } })).status,
    ).toBe(200)
    expect(
      (
        await app.request('/__admin/timelines/staging-incident', {
          method: 'DELETE',
          headers: { 'X-Mock-Session': session },
        })
      ).status,
    ).toBe(204)
    expect(
      (await app.request('/__admin/timelines/staging-incident', { headers: { 'X-Mock-Session': session } })).status,
    ).toBe(404)
  })

  it('a frozen clock freezes the timeline; advancing 45 s moves it into the 429 phase; repeat loops it', async () => {
    const app = checkedApp()
    await freezeAt(app.request, session, 0)
    const body = { ...stagingIncident, phases: stagingIncident.phases.slice(0, 3), repeat: true }
    expect((await app.request('/__admin/timelines/loop', json('PUT', body, session))).status).toBe(201)
    const headers = { ...bearer(), 'X-Mock-Session': session }
    const statuses = async () => (await app.request('/v1/pets/1', { headers })).status
    expect([await statuses(), await statuses()]).toEqual([503, 503])
    const moved = await app.request(
      '/__admin/clock',
      json('PUT', { now: new Date(t0 + 45_000).toISOString(), frozen: true }, session),
    )
    expect(moved.status).toBe(200)
    expect(await statuses()).toBe(429)
    // One loop is 120 s: 120 + 45 is the 429 phase of the second loop.
    await freezeAt(app.request, session, 165)
    expect(await statuses()).toBe(429)
    expect(
      await view(app.request('/__admin/timelines/loop', { headers: { 'X-Mock-Session': session } })),
    ).toMatchObject({
      current: { phase: 1, cycle: 1, startedAt: new Date(t0 + 150_000).toISOString() },
    })
  })

  it('a ramp of probability from 0 to 1 gives a hit rate rising across the phase, the same draws for the same seed', async () => {
    const hits = async (seed: number) => {
      const app = checkedApp()
      await freezeAt(app.request, session, 0)
      const ramp = {
        phases: [{ for: '100s', rule: { operation: 'getPet', status: 503, probability: { from: 0, to: 1 } } }],
        seed,
      }
      expect((await app.request('/__admin/timelines/ramp', json('PUT', ramp, session))).status).toBe(201)
      const headers = { ...bearer(), 'X-Mock-Session': session }
      const rates: number[] = []
      for (const at of [5, 35, 65, 95]) {
        await freezeAt(app.request, session, at)
        let hit = 0
        for (let i = 0; i < 100; i++) if ((await app.request('/v1/pets/1', { headers })).status === 503) hit++
        rates.push(hit)
      }
      return rates
    }
    const first = await hits(7)
    expect(first[0]).toBeLessThan(20)
    expect(first[3]).toBeGreaterThan(80)
    for (let i = 1; i < first.length; i++) expect(first[i]).toBeGreaterThan(first[i - 1]!)
    expect(await hits(7)).toEqual(first)
    expect(await hits(8)).not.toEqual(first)
  })

  it('times counts the requests a phase met within the phase; a delay ramp moves across it', async () => {
    const app = checkedApp()
    await freezeAt(app.request, session, 0)
    const body = {
      phases: [
        { for: '10s', rule: { operation: 'getPet', status: 500, times: 2 } },
        { for: '10s', rule: { operation: 'getPet', delayMs: { from: 0, to: 1000 } } },
      ],
    }
    expect((await app.request('/__admin/timelines/t', json('PUT', body, session))).status).toBe(201)
    const headers = { ...bearer(), 'X-Mock-Session': session }
    const got = []
    for (let i = 0; i < 3; i++) got.push((await app.request('/v1/pets/1', { headers })).status)
    expect(got).toEqual([500, 500, 200])
    await freezeAt(app.request, session, 15)
    expect((await app.request('/v1/pets/1', { headers })).status).toBe(200)
    expect(await lastShaping(app.request, session)).toMatchObject([{ by: 'fault', delayMs: 500 }])
    // After the last phase of a timeline that does not loop, nothing applies.
    await freezeAt(app.request, session, 25)
    expect((await app.request('/v1/pets/1', { headers })).status).toBe(200)
    expect(await lastShaping(app.request, session)).toBeUndefined()
  })

  it('a bundle exported mid-timeline and loaded into a new session continues the same phases at the same clock', async () => {
    const app = checkedApp()
    await freezeAt(app.request, session, 0)
    expect(
      (await app.request('/__admin/timelines/staging-incident', json('PUT', stagingIncident, session))).status,
    ).toBe(201)
    await freezeAt(app.request, session, 40)
    const bundle = await (
      await app.request('/__admin/snapshot', { headers: { 'X-Mock-Session': session, Accept: 'application/json' } })
    ).json()
    const other = checkedApp()
    const loaded = await other.request('/__admin/snapshot', json('PUT', bundle, 'replay'))
    expect(loaded.status).toBe(204)
    const headers = { ...bearer(), 'X-Mock-Session': 'replay' }
    expect((await other.request('/v1/pets', { headers })).status).toBe(429)
    expect(
      await view(other.request('/__admin/timelines/staging-incident', { headers: { 'X-Mock-Session': 'replay' } })),
    ).toMatchObject({
      current: { phase: 1, startedAt: new Date(t0 + 30_000).toISOString() },
    })
    await freezeAt(other.request, 'replay', 125)
    expect((await other.request('/v1/pets', { headers })).status).toBe(200)
    // The bundle shows no timeline among the fault rules it lists to clients either.
    expect(await view(other.request('/__admin/faults', { headers: { 'X-Mock-Session': 'replay' } }))).toEqual({
      faults: [],
    })
  })

  it('the getpet-brownout preset answers getPet with the post-Sunset 410 only inside its windows, read from the contract’s Sunset', async () => {
    const app = checkedApp()
    const sunset = Date.parse('2030-12-05T00:00:00Z')
    const hour = 3_600_000
    const day = 24 * hour
    const put = await app.request('/__admin/timelines/brownout', json('PUT', { preset: 'getpet-brownout' }, session))
    expect(put.status).toBe(201)
    // 1 h, 2 h, 4 h, a week apart, the last ending at the Sunset.
    const start = sunset - 7 * hour - 14 * day
    expect(await put.json()).toMatchObject({
      start: new Date(start).toISOString(),
      state: 'pending',
      startsAt: new Date(start).toISOString(),
      preset: { preset: 'getpet-brownout', windows: 3, first: '1h', gap: '7d' },
    })
    const windows = [
      [start, start + hour],
      [start + hour + 7 * day, start + 3 * hour + 7 * day],
      [sunset - 4 * hour, sunset],
    ]
    for (const [i, [from, to]] of windows.entries()) expect(to! - from!).toBe(hour * 2 ** i)
    const headers = { ...bearer(), 'X-Mock-Session': session }
    const at = async (ms: number) => {
      const res = await app.request(
        '/__admin/clock',
        json('PUT', { now: new Date(ms).toISOString(), frozen: true }, session),
      )
      expect(res.status).toBe(200)
      const pet = await app.request('/v1/pets/1', { headers })
      const list = await app.request('/v1/pets', { headers })
      return { pet: pet.status, list: list.status, sunset: pet.headers.get('sunset'), body: await pet.json() }
    }
    const gone = {
      pet: 410,
      list: 200,
      sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
      body: {
        code: 'gone',
        message: 'getPet (GET /v1/pets/{petId}) was removed on 2030-12-05; use GET /v1/pets?status={status} instead.',
        status: 410,
      },
    }
    for (const [from, to] of windows) {
      expect(await at(from!)).toEqual(gone)
      expect(await at(to! - 1)).toEqual(gone)
      // After a window, getPet answers again (after the last one, the Sunset's own 410: below).
      if (to !== sunset) expect(await at(to!)).toMatchObject({ pet: 200, list: 200 })
    }
    expect(await at(start - 1)).toMatchObject({ pet: 200 })
    expect(await at(start + 3 * day)).toMatchObject({ pet: 200 })
    // The brownout's 410 is marked as the timeline's; the Sunset's own after it is not.
    await at(sunset - 1)
    expect(await lastShaping(app.request, session)).toBeUndefined()
    const res = await app.request('/__admin/requests?limit=2', { headers: { 'X-Mock-Session': session } })
    expect(JSON.stringify(await res.json())).toContain('"timeline":{"name":"brownout","phase":4')
    expect((await at(sunset + 1)).pet).toBe(410)
    expect(
      await view(app.request('/__admin/timelines/brownout', { headers: { 'X-Mock-Session': session } })),
    ).toMatchObject({ state: 'running', current: { phase: 5, nextAt: null } })
  })

  it('a timeline is charged to the memory budget: 507 when full, nothing stored; at most 20 a session', async () => {
    const { request } = contractApp({ maxMemory: 1, pets: [{ id: 1, name: 'Rex', categoryId: 1 }] })
    const headers = { ...bearer(), 'X-Mock-Session': 'f', 'Content-Type': 'application/json' }
    let res: Response | undefined
    for (let i = 0; i < 1000 && res?.status !== 507; i++) {
      res = await request('/v1/pets', {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'n'.repeat(1000), categoryId: 1 }),
      })
    }
    expect(res!.status).toBe(507)
    let put: Response | undefined
    let added = 0
    for (let i = 0; i < 8 && put?.status !== 507; i++) {
      put = await request(`/__admin/timelines/t${i}`, json('PUT', stagingIncident, 'f'))
      if (put.status === 201) added++
    }
    expect(put!.status).toBe(507)
    expect(((await put!.json()) as { message: string }).message).toContain('fault rules need')
    const listed = (await (await request('/__admin/timelines', { headers: { 'X-Mock-Session': 'f' } })).json()) as {
      timelines: unknown[]
    }
    expect(listed.timelines).toHaveLength(added)
    // The session's cap.
    const app = checkedApp()
    for (let i = 0; i < maxTimelines; i++) {
      expect((await app.request(`/__admin/timelines/t${i}`, json('PUT', stagingIncident, session))).status).toBe(201)
    }
    const over = await app.request('/__admin/timelines/one-more', json('PUT', stagingIncident, session))
    expect(over.status).toBe(507)
    // Replacing one is no new timeline.
    expect((await app.request('/__admin/timelines/t0', json('PUT', stagingIncident, session))).status).toBe(200)
  })

  it('coverage counts a phase’s answers as injected and the Pact export leaves them out, as a rule’s', async () => {
    const app = checkedApp()
    await freezeAt(app.request, session, 0)
    const body = { phases: [{ for: '10s', rule: { operation: 'getPet', status: 404 } }, { for: 'forever' }] }
    expect((await app.request('/__admin/timelines/t', json('PUT', body, session))).status).toBe(201)
    const headers = { ...bearer(), 'X-Mock-Session': session }
    expect((await app.request('/v1/pets/1', { headers })).status).toBe(404)
    await freezeAt(app.request, session, 10)
    expect((await app.request('/v1/pets/1', { headers })).status).toBe(200)
    const coverage = (await view(app.request('/__admin/coverage', { headers: { 'X-Mock-Session': session } }))) as {
      responses: { operation: string; status: number; requests: number; injected: number }[]
    }
    const row = (status: number) => coverage.responses.find((r) => r.operation === 'getPet' && r.status === status)
    expect(row(404)).toMatchObject({ requests: 1, injected: 1 })
    expect(row(200)).toMatchObject({ requests: 1, injected: 0 })
    const pact = (await view(
      app.request('/__admin/pact?consumer=web', { headers: { 'X-Mock-Session': session } }),
    )) as {
      interactions: { description: string }[]
    }
    expect(pact.interactions.map((i) => i.description)).toEqual(['GET /v1/pets/1 → 200, given a pet with id 1 exists'])
  })

  const phase = { for: '30s', rule: { status: 503 } }
  it.each([
    [
      'an unknown preset',
      { preset: 'meltdown' },
      'preset must be one of outage, flapping, slow-degradation, getpet-brownout (got "meltdown").',
    ],
    ['for of 0', { phases: [{ for: '0s', rule: { status: 503 } }] }, 'phases[0].for must be more than 0 (got "0s").'],
    ['a negative for', { phases: [phase, { for: -5 }] }, 'phases[1].for must be more than 0 (got -5).'],
    [
      'a for that is no duration',
      { phases: [{ for: 'soon' }] },
      'phases[0].for must be a duration such as "500ms", "30s", "2m", "1h", "7d" or a number of milliseconds, or "forever" (got "soon").',
    ],
    [
      'a phase rule that fails the rule check',
      { phases: [phase, { for: '1s', rule: { status: 200 } }] },
      'phases[1].rule: status must be an integer between 400 and 599.',
    ],
    [
      'a phase rule on an unknown operation',
      { phases: [{ for: '1s', rule: { operation: 'nope', status: 503 } }] },
      'phases[0].rule: operation must be one of listPets, createPet, getPet.',
    ],
    [
      'a ramp beyond 1',
      { phases: [{ for: '1s', rule: { status: 503, probability: { from: 0, to: 2 } } }] },
      'phases[0].rule.probability.to must be a number from 0 to 1.',
    ],
    [
      'a ramp on a phase that lasts forever',
      { phases: [{ for: 'forever', rule: { delayMs: { from: 0, to: 10 } } }] },
      'phases[0].rule.delayMs ramps across its phase, so the phase needs a finite for.',
    ],
    [
      'too many phases',
      { phases: Array(maxTimelinePhases + 1).fill(phase) },
      `phases holds ${maxTimelinePhases + 1} phases, more than a timeline may (${maxTimelinePhases}).`,
    ],
    ['no phases', { phases: [] }, `phases must be an array of 1 to ${maxTimelinePhases} phases.`],
    [
      'forever before the last phase',
      { phases: [{ for: 'forever' }, phase] },
      'phases[0].for: only the last phase may last forever.',
    ],
    [
      'repeat with a phase that lasts forever',
      { ...stagingIncident, repeat: true },
      'repeat: a timeline that repeats needs every phase to end (phases[3].for is "forever").',
    ],
    [
      'an unknown field of a phase',
      { phases: [{ for: '1s', rules: {} }] },
      'phases[0].rules is not a known field (a phase has for and rule).',
    ],
    [
      'a start that is no instant',
      { start: 'tomorrow', phases: [phase] },
      'start must be "now" or an ISO 8601 instant with a time zone, e.g. 2030-12-05T00:00:00Z (got "tomorrow").',
    ],
    [
      'an unknown preset parameter',
      { preset: 'outage', downtime: '1m' },
      'downtime is not a parameter of preset outage (its parameters: down, recovering, status, operation, start, seed).',
    ],
    [
      'a preset parameter out of range',
      { preset: 'outage', down: '0s' },
      'down must be a duration such as "500ms", "30s", "2m", "1h", "7d" or a number of milliseconds, more than 0 (got "0s").',
    ],
  ])('refuses %s with a 400 naming the phase and field, storing nothing', async (_, body, message) => {
    const app = checkedApp()
    const res = await app.request('/__admin/timelines/bad', json('PUT', body, session))
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 400,
      body: { code: 'bad_request', message, status: 400 },
    })
    // Refused in a new session: the session is not made (the GUIDE: a refused request changes nothing).
    expect(await view(app.request('/__admin/timelines', { headers: { 'X-Mock-Session': session } }))).toMatchObject({
      code: 'session_not_found',
    })
    // In a session that exists: nothing is stored.
    expect((await app.request('/__admin/timelines/ok', json('PUT', stagingIncident, session))).status).toBe(201)
    expect((await app.request('/__admin/timelines/bad', json('PUT', body, session))).status).toBe(400)
    const listed = await view(app.request('/__admin/timelines', { headers: { 'X-Mock-Session': session } }))
    expect((listed['timelines'] as { name: string }[]).map((t) => t.name)).toEqual(['ok'])
  })
})
