import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { SchemaObject } from '../../src/core/spec/schema.js'
import { auth, contractApp, postJson, sendableInHeader, sendableInUrl, spec } from '../helpers/contract.js'
import { extraKeys, invalidNewPetText, validValue } from '../helpers/arbitraries.js'
import { onePet } from '../helpers/fixtures.js'

// Replay a failure with FC_SEED=<seed printed in the failure> npm test.
const seed = process.env['FC_SEED'] === undefined ? undefined : Number(process.env['FC_SEED'])
const runs = (numRuns: number): fc.Parameters<unknown> => ({ numRuns, ...(seed !== undefined && { seed }) })

const newPetSchema: SchemaObject = { $ref: '#/components/schemas/NewPet' }
const validNewPet = validValue(spec, newPetSchema) as fc.Arbitrary<Record<string, unknown>>
const pets = onePet({ status: 'sold' })

const snapshot = async (request: ReturnType<typeof contractApp>['request']) => (await request('/__admin/state')).text()

const expectErrorBody = async (res: Response, statuses: number[]) => {
  expect(statuses).toContain(res.status)
  const body = await res.json()
  expect(body.status).toBe(res.status)
  expect(typeof body.code).toBe('string')
  expect(typeof body.message).toBe('string')
  return body
}

describe('properties driven by the openapi.yaml schemas', () => {
  it('any valid NewPet (with extra keys) gives 201 and reads back identically', async () => {
    const { request } = contractApp({ pets })
    await fc.assert(
      fc.asyncProperty(validNewPet, extraKeys(['name', 'categoryId', 'status', 'id']), async (pet, extra) => {
        const res = await request('/v1/pets', postJson({ ...extra, ...pet }))
        expect(res.status).toBe(201)
        const created = await res.json()
        const expected = {
          id: created.id,
          name: pet['name'],
          categoryId: pet['categoryId'],
          ...('status' in pet && { status: pet['status'] }),
        }
        expect(created).toEqual(expected)
        const read = await request(`/v1/pets/${created.id}`, { headers: auth() })
        expect(await read.text()).toBe(JSON.stringify(expected))
      }),
      runs(200),
    )
  })

  it('any invalid body gives a 400 Error body and changes nothing', async () => {
    const { request } = contractApp({ pets })
    const before = await snapshot(request)
    await fc.assert(
      fc.asyncProperty(invalidNewPetText(validNewPet), async (text) => {
        // each case starts from the same state, so a counterexample is the case that changed it
        await request('/__admin/reset', { method: 'POST' })
        const res = await request('/v1/pets', postJson(text))
        await expectErrorBody(res, [400])
        expect(await snapshot(request)).toBe(before)
      }),
      runs(300),
    )
  })

  it('any query string gives 200 or a 400 naming limit or status, never more', async () => {
    const { request } = contractApp({ pets })
    const value = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 25 }),
      fc.integer().map(String),
      fc.constantFrom('1', '100', 'sold', '1e2', '-0'),
    )
    const query = fc.dictionary(
      fc.constantFrom('limit', 'status', 'x', '__proto__', 'constructor'),
      fc.array(value, { minLength: 1, maxLength: 2 }),
    )
    await fc.assert(
      fc.asyncProperty(query, async (params) => {
        const qs = Object.entries(params)
          .flatMap(([k, vs]) => vs.map((v) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`))
          .join('&')
        const res = await request(`/v1/pets?${qs}`, { headers: auth() })
        if (res.status === 200) return
        const body = await expectErrorBody(res, [400])
        expect(body.message).toMatch(/^(limit|status) /)
      }),
      runs(300),
    )
  })

  it('any path id gives 200, 404, or a 400 naming petId', async () => {
    const { request } = contractApp({ pets })
    const id = fc.oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }).filter(sendableInUrl),
      fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
      fc.double().map(String),
    )
    await fc.assert(
      fc.asyncProperty(id, async (raw) => {
        const res = await request(`/v1/pets/${encodeURIComponent(raw)}`, { headers: auth() })
        if (res.status === 200) return
        const body = await expectErrorBody(res, [400, 404])
        if (res.status === 400) expect(body.message).toMatch(/^petId /)
      }),
      runs(300),
    )
  })

  it('any header values give an answer below 500, and a GET changes nothing', async () => {
    const { request } = contractApp({ pets, apiKeys: ['k'] })
    const before = await snapshot(request)
    // what HTTP lets through as a header value: no NUL, CR or LF (those are refused by Node's parser, see server.test.ts)
    const headerValue = fc.string({
      unit: fc
        .integer({ min: 0x20, max: 0xff })
        .filter(sendableInHeader)
        .map((c) => String.fromCharCode(c)),
      maxLength: 40,
    })
    const headers = fc.record(
      {
        Authorization: fc.oneof(
          headerValue,
          headerValue.map((v) => `Bearer ${v}`),
          fc.constant('Bearer k'),
        ),
        Prefer: fc.oneof(headerValue, fc.constantFrom('code=404', 'code=500, delay=0', 'delay=x', 'code=999999999999')),
        'X-Mock-Session': headerValue,
        'Content-Type': headerValue,
        Origin: headerValue,
      },
      { requiredKeys: [] },
    )
    const url = fc.constantFrom('/v1/pets', '/v1/pets/1', '/v1/pets?limit=5', '/__admin/health')
    await fc.assert(
      fc.asyncProperty(url, headers, async (path, hs) => {
        await request('/__admin/reset', { method: 'POST' })
        const res = await request(path, { headers: hs })
        expect(res.status).toBeLessThan(600)
        if (res.status >= 400) {
          const prefer = new Map(
            (hs.Prefer ?? '').split(',').map((p) => [p.split('=')[0]?.trim().toLowerCase(), p.split('=')[1]?.trim()]),
          )
          const forced = Number(prefer.get('code'))
          if (res.status >= 500) expect([500, 502, 503, 504]).toContain(forced)
          await expectErrorBody(res, [res.status])
        }
        expect(await snapshot(request)).toBe(before)
      }),
      runs(300),
    )
  })
})

describe('concurrency', () => {
  it('500 parallel creates give 500 distinct ids, all readable, all listed', async () => {
    const { request } = contractApp({ pets: [] })
    const responses = await Promise.all(
      Array.from({ length: 500 }, (_, i) => request('/v1/pets', postJson({ name: `p${i}`, categoryId: i }))),
    )
    expect(responses.map((r) => r.status)).toEqual(Array(500).fill(201))
    const ids = await Promise.all(responses.map(async (r) => (await r.json()).id as number))
    expect(new Set(ids).size).toBe(500)
    const reads = await Promise.all(ids.map((id) => request(`/v1/pets/${id}`, { headers: auth() })))
    expect(reads.map((r) => r.status)).toEqual(Array(500).fill(200))
    const state = (await (await request('/__admin/state')).json()).pets.map((p: { id: number }) => p.id)
    expect(state).toEqual([...ids].sort((a, b) => a - b))
    const firstPage = (await (await request('/v1/pets?limit=100', { headers: auth() })).json()).map(
      (p: { id: number }) => p.id,
    )
    expect(firstPage).toEqual(state.slice(0, 100))
  })
})
