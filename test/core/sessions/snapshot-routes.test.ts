import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { createApp as createWebApp } from '../../../src/core/app.js'
import { fakePets } from '../../../src/index.js'
import { auth, contractApp, postJson } from '../../helpers/contract.js'
import { spawnServer } from '../../helpers/spawn-server.js'
import { bearer } from '../../helpers/auth.js'
import { packageVersion } from '../../../src/generated/contract.js'

const pets = [
  { id: 1, name: 'a', categoryId: 1, status: 'sold' as const },
  { id: 2, name: 'b', categoryId: 2 },
]
const send = (body: unknown, type = 'application/json', session?: string): RequestInit => ({
  method: 'PUT',
  headers: { 'Content-Type': type, ...(session && { 'X-Mock-Session': session }) },
  body: typeof body === 'string' ? body : JSON.stringify(body),
})
const asJson = { headers: { Accept: 'application/json' } }

describe('GET /__admin/snapshot', () => {
  it('is the whole world as a YAML download by default, JSON on Accept: application/json', async () => {
    const { request } = contractApp({ pets, seed: 7, delay: { min: 5, max: 9 } })
    await request('/__admin/faults', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ operation: 'getPet', status: 404, times: 3 }),
    })
    await request('/v1/pets', postJson({ name: 'c', categoryId: 3 }))
    await request('/v1/pets/1', { headers: auth() })

    const yaml = await request('/__admin/snapshot', { headers: { 'X-Mock-Session': 'default' } })
    expect(yaml.headers.get('content-type')).toBe('application/yaml; charset=utf-8')
    expect(yaml.headers.get('content-disposition')).toMatch(
      /^attachment; filename="petstore-mock-default-\d{8}T\d{6}Z\.snapshot\.yaml"$/,
    )
    const json = await (await request('/__admin/snapshot', asJson)).json()
    expect(parse(await yaml.text())).toEqual(json)
    expect(json).toEqual({
      format: 1,
      petstoreMock: packageVersion,
      seed: 7,
      pets: [...pets, { id: 3, name: 'c', categoryId: 3 }],
      nextId: 4,
      faults: [{ id: 1, operation: 'getPet', status: 404, times: 3, remaining: 2 }],
      nextFaultId: 2,
      latency: { min: 5, max: 9 },
      random: expect.any(Array),
      clock: null,
      rateLimit: null,
    })
    expect(json.random).toHaveLength(4)
    const other = await request('/__admin/snapshot', { headers: { Accept: 'text/html' } })
    expect(other.headers.get('content-type')).toBe('application/yaml; charset=utf-8')
  })
})

describe('PUT /__admin/snapshot', () => {
  it('restores a YAML or JSON snapshot into the session; absent fields take a fresh session’s values', async () => {
    const { request } = contractApp({ pets })
    const minimal = 'format: 1\npets:\n  - { id: 5, name: five, categoryId: 2 }\n'
    expect((await request('/__admin/snapshot', send(minimal, 'application/yaml', 's'))).status).toBe(204)
    const restored = await (
      await request('/__admin/snapshot', { headers: { Accept: 'application/json', 'X-Mock-Session': 's' } })
    ).json()
    expect(restored).toEqual({
      format: 1,
      petstoreMock: packageVersion,
      seed: 1,
      pets: [{ id: 5, name: 'five', categoryId: 2 }],
      nextId: 6,
      faults: [],
      nextFaultId: 1,
      latency: null,
      random: [-1, -2, 1, 0],
      clock: null,
      rateLimit: null,
    })
    // Other sessions are untouched; a reset goes back to the start-up world, not to the snapshot.
    expect((await (await request('/__admin/state')).json()).pets).toEqual(pets)
    await request('/__admin/reset', { method: 'POST', headers: { 'X-Mock-Session': 's' } })
    expect((await (await request('/__admin/state', { headers: { 'X-Mock-Session': 's' } })).json()).pets).toEqual(pets)
  })

  it('continues ids and rule ids where the snapshot says, and POST /__admin/seed defaults to its seed', async () => {
    const { request } = contractApp({ pets })
    const snapshot = {
      format: 1,
      seed: 9,
      pets: [{ id: 2, name: 'b', categoryId: 2 }],
      nextId: 40,
      faults: [{ id: 7, operation: 'createPet', status: 503, times: 3, remaining: 1 }],
      nextFaultId: 12,
    }
    expect((await request('/__admin/snapshot', send(snapshot))).status).toBe(204)
    expect((await request('/v1/pets', postJson({ name: 'x', categoryId: 1 }))).status).toBe(503)
    expect((await (await request('/v1/pets', postJson({ name: 'x', categoryId: 1 }))).json()).id).toBe(40)
    const rule = await request('/__admin/faults', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"status":500}',
    })
    expect((await rule.json()).id).toBe(12)
    await request('/__admin/seed', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"count":3}',
    })
    expect((await (await request('/__admin/state')).json()).pets).toEqual(await fakePets(3, 9))
  })

  const base = { format: 1, pets: [] }
  const rule = { id: 1, status: 503 }
  it.each([
    [{}, 'format is required.'],
    [{ format: 2, pets: [] }, 'format must be one of 1.'],
    [{ ...base, journal: [] }, 'journal is not a known field.'],
    [{ format: 1, pets: [{ id: 1, name: 'a' }] }, 'pets: entry 0: categoryId is required.'],
    [{ format: 1, pets: {} }, 'pets must be an array.'],
    [{ ...base, seed: -1 }, 'seed must be an integer between 0 and 4294967295.'],
    [{ ...base, faults: [{ status: 503 }] }, 'faults.0.id is required.'],
    [{ ...base, faults: [{ id: 1, status: 200 }] }, 'faults.0: status must be an integer between 400 and 599.'],
    [
      { ...base, faults: [{ id: 1, operation: 'deletePet', status: 500 }] },
      'faults.0: operation must be one of listPets, createPet, getPet.',
    ],
    [{ ...base, faults: [rule, rule] }, 'faults.1.id 1 is already used by faults.0.'],
    [{ ...base, faults: [{ ...rule, remaining: 2 }] }, 'faults.0.remaining applies to rules with times only.'],
    [{ ...base, faults: [{ ...rule, times: 1, remaining: 2 }] }, 'faults.0.remaining must be at most times (1).'],
    [
      { format: 1, pets: [{ id: 5, name: 'e', categoryId: 1 }], nextId: 5 },
      'nextId must be greater than the largest pet id (5).',
    ],
    [
      { ...base, faults: [{ ...rule, id: 3 }], nextFaultId: 2 },
      'nextFaultId must be greater than the largest rule id (3).',
    ],
    [{ ...base, nextId: 0 }, 'nextId must be an integer between 1 and 9007199254740991.'],
    [{ ...base, latency: { min: 5, max: 1 } }, 'latency.min must not exceed latency.max.'],
    [{ ...base, latency: { min: 0 } }, 'latency.max is required.'],
    [{ ...base, latency: { min: 0, max: 60001 } }, 'latency.max must be an integer between 0 and 60000.'],
    [{ ...base, latency: 'x' }, 'latency must be a JSON object.'],
    [{ ...base, random: [1, 2, 3] }, 'random must be 4 integers (a xoroshiro128+ state).'],
    [{ ...base, random: [0, 0, 0, 0] }, 'random must not be all zeros.'],
    [{ ...base, random: [1, 2, 3, 2 ** 31] }, 'random.3 must be an integer between -2147483648 and 2147483647.'],
    [
      { ...base, clock: { now: '2030-02-30T00:00:00Z' } },
      'clock.now must be an ISO 8601 instant with a time zone, e.g. 2030-12-05T00:00:00Z.',
    ],
    [{ ...base, clock: { frozen: true } }, 'clock.now is required.'],
    [
      { ...base, clock: { now: '9999-12-31T23:59:59.999-00:01' } },
      'clock.now must be between 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z.',
    ],
    [
      { ...base, clock: { now: '0000-01-01T00:00:00+00:01' } },
      'clock.now must be between 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z.',
    ],
    [{ ...base, rateLimit: '5/y' }, /^rateLimit must be <n>\/<window>/],
    ['{"format":1,"pets":[],"nextId":9007199254740993}', 'nextId must be an integer between 1 and 9007199254740991.'],
    ['format: 1\npets: [\n', /^Request body is not valid YAML: /],
    ['format: 1\nformat: 1\npets: []\n', /^Request body is not valid YAML: .*[Mm]ap keys must be unique/],
    ['format: 1\npets: []\nnextId: 9007199254740993\n', 'nextId must be an integer between 1 and 9007199254740991.'],
    ['{"format":1,', /^Request body is not valid JSON/],
  ])('PUT %j → 400 naming the field, nothing restored', async (body, message) => {
    const { request } = contractApp({ pets, faults: [{ status: 500, times: 2 }] })
    const before = await (await request('/__admin/snapshot', asJson)).text()
    const type = typeof body === 'string' && !body.startsWith('{') ? 'application/yaml' : 'application/json'
    const res = await request('/__admin/snapshot', send(body, type))
    expect(res.status).toBe(400)
    const error = await res.json()
    expect(error).toMatchObject({ code: 'bad_request', status: 400 })
    if (message instanceof RegExp) expect(error.message).toMatch(message)
    else expect(error.message).toBe(message)
    expect(await (await request('/__admin/snapshot', asJson)).text()).toBe(before)
  })

  it.each([
    ['text/plain', 415],
    ['application/x-www-form-urlencoded', 415],
  ])('Content-Type %s → %d', async (type, status) => {
    const { request } = contractApp({ pets })
    expect((await request('/__admin/snapshot', send('format: 1', type))).status).toBe(status)
  })

  it('beyond --max-pets is a 507 and restores nothing; an empty body a 400; an oversized one a 413', async () => {
    const { request } = contractApp({ pets, maxPets: 1, bodyLimit: 200 })
    const res = await request('/__admin/snapshot', send({ format: 1, pets }))
    expect(res.status).toBe(507)
    expect((await res.json()).message).toBe('2 pets exceed the capacity of 1; nothing was restored.')
    expect((await request('/__admin/snapshot', send(''))).status).toBe(400)
    expect((await request('/__admin/snapshot', send({ format: 1, pets: [], x: 'y'.repeat(300) }))).status).toBe(413)
    expect((await (await request('/__admin/state')).json()).pets).toEqual(pets)
  })

  it('carries the clock and the rate limit: a restored session answers as the original (sunset included)', async () => {
    const { request } = contractApp({
      pets,
      clock: { now: '2031-01-01T00:00:00Z', frozen: true },
      rateLimit: { limit: 5, windowSeconds: 60 },
    })
    const json = await (await request('/__admin/snapshot', asJson)).json()
    expect(json).toMatchObject({ clock: { now: '2031-01-01T00:00:00.000Z', frozen: true }, rateLimit: '5/m' })
    // Past getPet's sunset (2030-12-05) on the frozen clock: 410 in the original and after a restore.
    expect((await request('/v1/pets/1', { headers: auth() })).status).toBe(410)
    const other = { headers: { 'X-Mock-Session': 'other', Accept: 'application/json' } }
    await request('/__admin/snapshot', send({ ...json, clock: null, rateLimit: null }, 'application/json', 'other'))
    expect((await request('/v1/pets/1', { headers: auth({ 'X-Mock-Session': 'other' }) })).status).toBe(200)
    await request('/__admin/snapshot', send(json, 'application/json', 'other'))
    expect((await request('/v1/pets/1', { headers: auth({ 'X-Mock-Session': 'other' }) })).status).toBe(410)
    expect(await (await request('/__admin/clock', other)).json()).toMatchObject({
      now: '2031-01-01T00:00:00.000Z',
      frozen: true,
    })
    expect(await (await request('/__admin/rate-limit', other)).json()).toMatchObject({ rate: '5/m' })
    // Left out, they are the start-up ones.
    await request('/__admin/snapshot', send({ format: 1, pets }, 'application/json', 'third'))
    const third = await (
      await request('/__admin/snapshot', { headers: { ...other.headers, 'X-Mock-Session': 'third' } })
    ).json()
    expect(third).toMatchObject({ clock: { now: '2031-01-01T00:00:00.000Z', frozen: true }, rateLimit: '5/m' })
  })

  it('without a YAML codec (the web build, as msw runs it) snapshots are JSON only', async () => {
    const app = createWebApp({ pets })
    const res = await app.request('/__admin/snapshot')
    expect(res.headers.get('content-type')).toBe('application/json')
    expect((await res.json()).pets).toEqual(pets)
    const yaml = await app.request('/__admin/snapshot', send('format: 1\npets: []\n', 'application/yaml'))
    expect(yaml.status).toBe(415)
    expect((await yaml.json()).message).toBe(
      'This mock reads JSON only (no YAML parser in this build); send Content-Type: application/json.',
    )
  })

  it('is behind the admin token', async () => {
    const { request } = contractApp({ pets, adminToken: 'adm' })
    expect((await request('/__admin/snapshot')).status).toBe(401)
    expect((await request('/__admin/snapshot', send({ format: 1, pets: [] }))).status).toBe(401)
    expect((await request('/__admin/snapshot', { headers: bearer('adm') })).status).toBe(200)
  })
})

// The same N requests after a restore give the same answers: ids, rule countdowns, probability and latency draws.
describe('a restored snapshot replays identically', () => {
  const N = 40
  const requests = (session?: string): [string, RequestInit][] =>
    Array.from({ length: N }, (_, i) => {
      const headers = auth(session ? { 'X-Mock-Session': session } : {})
      if (i % 4 === 0) return ['/v1/pets', postJson({ name: `p${i}`, categoryId: 1 + (i % 5) }, headers)]
      if (i % 4 === 1) return [`/v1/pets/${1 + (i % 7)}`, { headers }]
      return [`/v1/pets?limit=${1 + (i % 3)}`, { headers }]
    })
  type Answer = [number, string]
  const answers = async (fetcher: (url: string, init: RequestInit) => Promise<Response>, session?: string) => {
    const out: Answer[] = []
    for (const [url, init] of requests(session)) {
      const res = await fetcher(url, init)
      out.push([res.status, await res.text()])
    }
    return out
  }
  const latencies = (entries: { shapedBy?: { by: string; delayMs?: number }[] }[]) =>
    entries.map((e) => e.shapedBy?.find((s) => s.by === 'latency')?.delayMs)

  it('into a new session and into a new server started with --snapshot', async () => {
    const { request } = contractApp({ pets: [], delay: { min: 0, max: 3 }, seed: 42 })
    const admin = (path: string, body: unknown) =>
      request(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
    await request('/__admin/state', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ pets: await fakePets(6, 3) }),
    })
    await admin('/__admin/faults', { operation: 'listPets', status: 503, probability: 0.4 })
    await admin('/__admin/faults', { operation: 'getPet', status: 404, times: 3 })
    await admin('/__admin/faults', { operation: 'createPet', status: 500, probability: 0.3, times: 4 })
    // Some requests before the snapshot: the generator and the counts are mid-way when it is taken.
    for (const url of ['/v1/pets', '/v1/pets?limit=2', '/v1/pets/1']) await request(url, { headers: auth() })

    const snapshot = await (await request('/__admin/snapshot')).text()
    const original = await answers((url, init) => request(url, init))
    const originalLatency = latencies((await (await request(`/__admin/requests?limit=${N}`)).json()).requests)
    const statuses = new Set(original.map(([status]) => status))
    expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 201, 404, 503]))

    expect((await request('/__admin/snapshot', send(snapshot, 'application/yaml', 'replay'))).status).toBe(204)
    expect(await answers((url, init) => request(url, init), 'replay')).toEqual(original)
    const replayed = await request(`/__admin/requests?limit=${N}`, { headers: { 'X-Mock-Session': 'replay' } })
    expect(latencies((await replayed.json()).requests)).toEqual(originalLatency)

    const file = join(mkdtempSync(join(tmpdir(), 'snapshot-')), 'world.snapshot.yaml')
    writeFileSync(file, snapshot)
    const server = await spawnServer(['--snapshot', file, '--log', 'silent'])
    try {
      expect(await answers((url, init) => fetch(`${server.url}${url}`, init))).toEqual(original)
      const journal = await (await fetch(`${server.url}/__admin/requests?limit=${N}`)).json()
      expect(latencies(journal.requests)).toEqual(originalLatency)
    } finally {
      await server.stop()
    }
  })
})
