import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { clockRange, latestClockSetting } from '../../../src/core/time/clock-range.js'
import type { SchemaObject } from '../../../src/core/spec/schema.js'
import { adminJson } from '../../helpers/admin.js'
import { validValue } from '../../helpers/arbitraries.js'
import { auth, contractApp, postJson, spec } from '../../helpers/contract.js'
import { fakeDateAt } from '../../helpers/fake-date.js'

// Replay a failure with FC_SEED=<seed printed in the failure> npm test.
const seed = process.env['FC_SEED'] === undefined ? undefined : Number(process.env['FC_SEED'])
const runs = (numRuns: number): fc.Parameters<unknown> => ({ numRuns, ...(seed !== undefined && { seed }) })

const start = Date.parse('2026-06-01T12:00:00Z')
fakeDateAt(start)

type Request = ReturnType<typeof contractApp>['request']
const hostMs = fc.integer({ min: clockRange.min - 10 ** 13, max: clockRange.max + 10 ** 13 })
// Instants the clock may be set to, written with any zone offset (the issue's -23:59 among them).
const settable = fc
  .tuple(
    fc.integer({ min: clockRange.min + 86_400_000, max: latestClockSetting - 86_400_000 }),
    fc.integer({ min: -1439, max: 1439 }),
  )
  .map(([ms, offsetMinutes]) => {
    const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, -1)
    const sign = offsetMinutes < 0 ? '-' : '+'
    const abs = Math.abs(offsetMinutes)
    return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
  })
const edges = fc.constantFrom(
  '0000-01-01T00:00:00Z',
  '8999-12-31T23:59:59.999Z',
  '8999-12-31T23:59:59.999+23:59',
  '0000-01-01T00:00:00-23:59',
)
const newPet = validValue(spec, { $ref: '#/components/schemas/NewPet' } as SchemaObject)
const rule = fc.record(
  {
    operation: fc.constantFrom('listPets', 'getPet', 'createPet', 'deletePet', 'updatePet'),
    status: fc.integer({ min: 400, max: 599 }),
    // Short: the steps' requests wait for real.
    delayMs: fc.integer({ min: 0, max: 2 }),
    fault: fc.constantFrom('reset', 'malformed'),
    times: fc.integer({ min: 1, max: 5 }),
    probability: fc.double({ min: 0, max: 1, noNaN: true }),
    petId: fc.integer({ min: 1, max: 5 }),
  },
  { requiredKeys: [] },
)

/** One thing a client can do to a session's world; the server may refuse it (then nothing changes). */
const step = fc.oneof(
  newPet.map((pet) => (request: Request) => request('/v1/pets', postJson(pet))),
  fc.integer({ min: 1, max: 6 }).map((id) => (request: Request) => request(`/v1/pets/${id}`, { headers: auth() })),
  fc
    .integer({ min: 1, max: 6 })
    .map((id) => (request: Request) => request(`/v1/pets/${id}`, { method: 'DELETE', headers: auth() })),
  rule.map((body) => (request: Request) => request('/__admin/faults', adminJson(body, 'POST'))),
  fc
    .record({ count: fc.integer({ min: 0, max: 4 }), seed: fc.integer({ min: 0, max: 2 ** 32 - 1 }) })
    .map((body) => (request: Request) => request('/__admin/seed', adminJson(body, 'POST'))),
  fc
    .record({ now: fc.oneof(settable, edges), frozen: fc.boolean() }, { requiredKeys: [] })
    .map((body) => (request: Request) => request('/__admin/clock', adminJson(body))),
  fc.constant((request: Request) => request('/__admin/clock', { method: 'DELETE' })),
  fc
    .constantFrom('1/s', '100/m', '10/30s', '5000/h', '1000/24h')
    .map((rate) => (request: Request) => request('/__admin/rate-limit', adminJson({ rate }))),
  fc.constant((request: Request) => request('/__admin/rate-limit', { method: 'DELETE' })),
  // Time passes on the host, by up to millennia either way: advancing clocks follow it.
  hostMs.map((ms) => async () => {
    vi.setSystemTime(ms)
    return new Response()
  }),
)

const snapshotAs = async (request: Request, type: 'application/json' | 'application/yaml') => {
  const res = await request('/__admin/snapshot', { headers: { Accept: type } })
  expect(res.status).toBe(200)
  return res.text()
}

describe('every state the server can reach round-trips through its own snapshot', () => {
  it.each(['application/json', 'application/yaml'] as const)(
    'GET %s, PUT it back, GET again: the same bundle',
    async (type) => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(step, { maxLength: 12 }),
          fc.constantFrom(undefined, { min: 0, max: 0 }, { min: 1, max: 2 }),
          async (steps, delay) => {
            vi.setSystemTime(start)
            const { request } = contractApp({ pets: [], seed: 7, ...(delay && { delay }) })
            // A `reset` fault rule makes a request fail: the world it leaves is still one to snapshot.
            for (const run of steps) await run(request).catch(() => undefined)
            const before = await snapshotAs(request, 'application/json')
            const written = await snapshotAs(request, type)
            const put = await request('/__admin/snapshot', {
              method: 'PUT',
              headers: { 'Content-Type': type },
              body: written,
            })
            expect(put.status, await put.clone().text()).toBe(204)
            expect(await snapshotAs(request, 'application/json')).toBe(before)
          },
        ),
        runs(60),
      )
    },
  )
})
