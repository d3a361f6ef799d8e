import { describe, expect, it } from 'vitest'
import { maxFaultRules } from '../../../src/core/faults/rule-check.js'
import { delayedAtLeast } from '../../helpers/asked-delay.js'
import { auth, contractApp, postJson } from '../../helpers/contract.js'
import { onePet } from '../../helpers/fixtures.js'

const pets = onePet()
const admin = (body: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
})

describe('fault rules through /__admin/faults', () => {
  it('creates, lists with remaining counts, deletes one and all', async () => {
    const { request } = contractApp({ pets })
    const created = await request('/__admin/faults', admin({ operation: 'listPets', status: 503, times: 2 }))
    expect(created.status).toBe(201)
    expect(await created.json()).toEqual({ id: 1, operation: 'listPets', status: 503, times: 2, remaining: 2 })
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(503)
    expect(await (await request('/__admin/faults')).json()).toEqual({
      faults: [{ id: 1, operation: 'listPets', status: 503, times: 2, remaining: 1 }],
    })
    await request('/__admin/faults', admin({ delayMs: 1 }))
    expect((await request('/__admin/faults/1', { method: 'DELETE' })).status).toBe(204)
    expect((await request('/__admin/faults/1', { method: 'DELETE' })).status).toBe(404)
    expect((await request('/__admin/faults/x', { method: 'DELETE' })).status).toBe(404)
    expect((await request('/__admin/faults', { method: 'DELETE' })).status).toBe(204)
    expect(await (await request('/__admin/faults')).json()).toEqual({ faults: [] })
  })

  it(`a session holds at most ${maxFaultRules} rules: 507 beyond, nothing added, the rules still apply`, async () => {
    const { request } = contractApp({
      pets,
      faults: Array.from({ length: maxFaultRules - 1 }, () => ({ operation: 'createPet', status: 500 })),
    })
    expect((await request('/__admin/faults', admin({ operation: 'getPet', status: 503 }))).status).toBe(201)
    const refused = await request('/__admin/faults', admin({ status: 500 }))
    expect(refused.status).toBe(507)
    expect(await refused.json()).toEqual({
      code: 'insufficient_storage',
      message: `The session holds ${maxFaultRules} fault rules and timelines together, the most it may; delete some first.`,
      status: 507,
    })
    const { faults } = (await (await request('/__admin/faults')).json()) as { faults: { id: number }[] }
    expect(faults).toHaveLength(maxFaultRules)
    expect(faults.at(-1)).toEqual({ id: maxFaultRules, operation: 'getPet', status: 503 })
    expect((await request('/v1/pets/1', { headers: auth() })).status).toBe(503)
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(200)
  })

  it('a rule with times disappears once used up', async () => {
    const { request } = contractApp({ pets })
    await request('/__admin/faults', admin({ status: 500, times: 1 }))
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(500)
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(200)
    expect(await (await request('/__admin/faults')).json()).toEqual({ faults: [] })
  })

  it('any 4xx or 5xx status, with the Error body; a forced failure creates nothing', async () => {
    const { request } = contractApp({ pets })
    await request('/__admin/faults', admin({ operation: 'createPet', status: 409 }))
    const res = await request('/v1/pets', postJson({ name: 'x', categoryId: 1 }))
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({ code: 'conflict', message: 'Conflict (HTTP 409).', status: 409 })
    expect(await (await request('/v1/pets', { headers: auth() })).json()).toEqual(pets)
  })

  it('petId restricts a rule to getPet of that id', async () => {
    const { request } = contractApp({ pets: [...pets, { id: 2, name: 'b', categoryId: 1 }] })
    await request('/__admin/faults', admin({ petId: 2, status: 500 }))
    expect((await request('/v1/pets/1', { headers: auth() })).status).toBe(200)
    expect((await request('/v1/pets/2', { headers: auth() })).status).toBe(500)
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(200)
  })

  it('first matching rule in creation order wins; delayMs alone is latency, with status a slow failure', async () => {
    const { request } = contractApp({ pets })
    await request('/__admin/faults', admin({ operation: 'getPet', delayMs: 60, status: 504 }))
    await request('/__admin/faults', admin({ delayMs: 60 }))
    expect((await delayedAtLeast(55, () => request('/v1/pets/1', { headers: auth() }))).status).toBe(504)
    expect((await delayedAtLeast(55, () => request('/v1/pets', { headers: auth() }))).status).toBe(200)
  })

  it('a Prefer override wins over rules, which are then not counted down', async () => {
    const { request } = contractApp({ pets })
    await request('/__admin/faults', admin({ status: 500, times: 1 }))
    expect((await request('/v1/pets', { headers: auth({ Prefer: 'code=503' }) })).status).toBe(503)
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(500)
  })

  it('probabilities replay exactly for the same seed, and after a reset', async () => {
    const pattern = async (seed: number) => {
      const { request } = contractApp({ pets, seed, faults: [{ status: 500, probability: 0.5 }] })
      const run = async () => {
        let out = ''
        for (let i = 0; i < 40; i++) out += (await request('/v1/pets', { headers: auth() })).status === 500 ? 'x' : '.'
        return out
      }
      const first = await run()
      await request('/__admin/reset', { method: 'POST' })
      expect(await run()).toBe(first)
      return first
    }
    const a = await pattern(11)
    expect(await pattern(11)).toBe(a)
    expect(a).toContain('x')
    expect(a).toContain('.')
    expect(await pattern(12)).not.toBe(a)
  })

  it.each([
    [{}, 'A fault rule needs at least one of status, delayMs, fault.'],
    [{ status: 302 }, 'status must be an integer between 400 and 599.'],
    [{ operation: 'x', status: 500 }, 'operation must be one of listPets, createPet, getPet.'],
    [{ status: 500, probability: -0.1 }, 'probability must be a number between 0 and 1.'],
  ])('an invalid rule %j → 400 naming the field', async (rule, message) => {
    const { request } = contractApp({ pets })
    const res = await request('/__admin/faults', admin(rule))
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ code: 'bad_request', message, status: 400 })
  })
})

describe('transport faults', () => {
  it('empty_response answers 200 with no body', async () => {
    const { app, request } = contractApp({ pets })
    await request('/__admin/faults', admin({ fault: 'empty_response' }))
    const res = await app.request('/v1/pets', { headers: auth() })
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('')
  })

  it('malformed_body answers the normal status with a truncated JSON body', async () => {
    const { app, request } = contractApp({ pets })
    await request('/__admin/faults', admin({ operation: 'getPet', fault: 'malformed_body' }))
    const res = await app.request('/v1/pets/1', { headers: auth() })
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(text).toBe('{"id":1,"name":"a')
    expect(() => JSON.parse(text)).toThrow()
  })

  it('connection_reset in-process makes app.request reject, as fetch does on a reset', async () => {
    const { app, request } = contractApp({ pets })
    await request('/__admin/faults', admin({ fault: 'connection_reset', times: 1 }))
    await expect(app.request('/v1/pets', { headers: auth() })).rejects.toThrow('connection_reset')
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(200)
    const [, reset] = (await (await request('/__admin/requests')).json()).requests
    expect(reset).toMatchObject({ status: 0, shapedBy: [{ by: 'fault', ruleId: 1, fault: 'connection_reset' }] })
  })
})

describe('--delay latency', () => {
  it('delays every /v1 answer by a seeded draw from the range, and the journal says so', async () => {
    const { request } = contractApp({ pets, delay: { min: 30, max: 60 } })
    await delayedAtLeast(29, () => request('/v1/nope', { headers: auth() }))
    const [entry] = (await (await request('/__admin/requests')).json()).requests
    expect(entry.shapedBy[0].by).toBe('latency')
    expect(entry.shapedBy[0].delayMs).toBeGreaterThanOrEqual(30)
    expect(entry.shapedBy[0].delayMs).toBeLessThanOrEqual(60)
  })
})

describe('PUT /__admin/faults/{name}: a rule set idempotently by name', () => {
  const put = (name: string, body: unknown, session?: string): RequestInit => ({
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', ...(session && { 'X-Mock-Session': session }) },
    body: JSON.stringify(body),
  })
  const list = async (request: (url: string, init?: RequestInit) => Promise<Response>) =>
    ((await (await request('/__admin/faults')).json()) as { faults: unknown[] }).faults

  it('201 when created, 200 when the same rule is PUT again: one rule, with its name', async () => {
    const { request } = contractApp({ pets })
    const first = await request('/__admin/faults/slow-list', put('slow-list', { operation: 'listPets', status: 503 }))
    expect(first.status).toBe(201)
    expect(await first.json()).toEqual({ id: 1, name: 'slow-list', operation: 'listPets', status: 503 })
    const again = await request('/__admin/faults/slow-list', put('slow-list', { operation: 'listPets', status: 503 }))
    expect(again.status).toBe(200)
    expect(await again.json()).toEqual({ id: 1, name: 'slow-list', operation: 'listPets', status: 503 })
    expect(await list(request)).toEqual([{ id: 1, name: 'slow-list', operation: 'listPets', status: 503 }])
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(503)
  })

  it('another rule under the name replaces it in place: id and evaluation order kept, remaining from the new times', async () => {
    const { request } = contractApp({ pets })
    await request('/__admin/faults/a', put('a', { operation: 'listPets', status: 500, times: 3 }))
    await request('/__admin/faults', admin({ operation: 'listPets', status: 502 }))
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(500)
    const replaced = await request('/__admin/faults/a', put('a', { operation: 'listPets', status: 503, times: 2 }))
    expect(replaced.status).toBe(200)
    expect(await replaced.json()).toEqual({
      id: 1,
      name: 'a',
      operation: 'listPets',
      status: 503,
      times: 2,
      remaining: 2,
    })
    expect(await list(request)).toEqual([
      { id: 1, name: 'a', operation: 'listPets', status: 503, times: 2, remaining: 2 },
      { id: 2, operation: 'listPets', status: 502 },
    ])
    // Still first: it answers before the unnamed rule, then is used up and gone, name and all.
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(503)
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(503)
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(502)
    // A rule without times drops `remaining`.
    const again = await request('/__admin/faults/a', put('a', { delayMs: 0 }))
    expect(again.status).toBe(201)
    expect(await again.json()).toEqual({ id: 3, name: 'a', delayMs: 0 })
    const noTimes = await request('/__admin/faults/a', put('a', { status: 500, times: 1 }))
    expect(await noTimes.json()).toEqual({ id: 3, name: 'a', status: 500, times: 1, remaining: 1 })
    expect(await (await request('/__admin/faults/a', put('a', { delayMs: 1 }))).json()).toEqual({
      id: 3,
      name: 'a',
      delayMs: 1,
    })
  })

  it('DELETE by name or id: digits only are an id; 404 for an unknown name', async () => {
    const { request } = contractApp({ pets })
    await request('/__admin/faults/x.1_y-Z', put('x.1_y-Z', { status: 500 }))
    await request('/__admin/faults/b', put('b', { status: 501 }))
    const unknown = await request('/__admin/faults/nope', { method: 'DELETE' })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({ code: 'not_found', message: 'No fault rule named "nope".', status: 404 })
    expect((await request('/__admin/faults/x.1_y-Z', { method: 'DELETE' })).status).toBe(204)
    expect((await request('/__admin/faults/x.1_y-Z', { method: 'DELETE' })).status).toBe(404)
    expect((await request('/__admin/faults/2', { method: 'DELETE' })).status).toBe(204)
    expect(await list(request)).toEqual([])
    // The name is free again: a PUT creates, under a new id.
    const created = await request('/__admin/faults/b', put('b', { status: 501 }))
    expect(created.status).toBe(201)
    expect(await created.json()).toEqual({ id: 3, name: 'b', status: 501 })
    expect((await request('/__admin/faults', { method: 'DELETE' })).status).toBe(204)
    expect((await request('/__admin/faults/b', put('b', { status: 501 }))).status).toBe(201)
  })

  it.each([
    ['digits only (an id)', '42', 'name "42" is digits only, which is a rule id; a name needs another character.'],
    [
      '65 characters',
      'a'.repeat(65),
      `name must be 1 to 64 of A-Z a-z 0-9 . _ -, not . or .. (got "${'a'.repeat(65)}").`,
    ],
    ['a space', 'a%20b', `name must be 1 to 64 of A-Z a-z 0-9 . _ -, not . or .. (got "a b").`],
    ['a colon', 'a:b', `name must be 1 to 64 of A-Z a-z 0-9 . _ -, not . or .. (got "a:b").`],
  ])('400 naming the name for %s; nothing added', async (_case, name, message) => {
    const { request } = contractApp({ pets })
    const res = await request(`/__admin/faults/${name}`, put(name, { status: 500 }))
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ code: 'bad_request', message, status: 400 })
    expect(await list(request)).toEqual([])
  })

  it('400 naming the field for a bad rule, as POST; the named rule stays as it was', async () => {
    const { request } = contractApp({ pets })
    await request('/__admin/faults/a', put('a', { status: 500 }))
    const res = await request('/__admin/faults/a', put('a', { status: 500, nickname: 1 }))
    expect(res.status).toBe(400)
    expect(((await res.json()) as { message: string }).message).toContain('nickname')
    const id = await request('/__admin/faults/a', put('a', { id: 9, status: 500 }))
    expect(id.status).toBe(400)
    expect(await list(request)).toEqual([{ id: 1, name: 'a', status: 500 }])
  })

  it(`at ${maxFaultRules} rules a PUT that would create is 507, nothing added; one that replaces is not`, async () => {
    const { request } = contractApp({
      pets,
      faults: Array.from({ length: maxFaultRules - 1 }, () => ({ operation: 'createPet', status: 500 })),
    })
    expect((await request('/__admin/faults/kept', put('kept', { operation: 'listPets', status: 500 }))).status).toBe(
      201,
    )
    const refused = await request('/__admin/faults/new', put('new', { status: 500 }))
    expect(refused.status).toBe(507)
    expect(await refused.json()).toEqual({
      code: 'insufficient_storage',
      message: `The session holds ${maxFaultRules} fault rules and timelines together, the most it may; delete some first.`,
      status: 507,
    })
    expect((await request('/__admin/faults/kept', put('kept', { operation: 'listPets', status: 503 }))).status).toBe(
      200,
    )
    expect(await list(request)).toHaveLength(maxFaultRules)
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(503)
  })

  it('snapshots round-trip names; a restored name is PUT over in place', async () => {
    const { request } = contractApp({ pets })
    await request('/__admin/faults', admin({ status: 502 }))
    await request('/__admin/faults/named', put('named', { operation: 'getPet', status: 503, times: 2 }))
    const snapshot = (await (
      await request('/__admin/snapshot', { headers: { Accept: 'application/json' } })
    ).json()) as {
      faults: unknown[]
    }
    expect(snapshot.faults).toEqual([
      { id: 1, status: 502 },
      { id: 2, name: 'named', operation: 'getPet', status: 503, times: 2, remaining: 2 },
    ])
    await request('/__admin/faults', { method: 'DELETE' })
    expect((await request('/__admin/snapshot', admin(snapshot, 'PUT'))).status).toBe(204)
    expect(await list(request)).toEqual(snapshot.faults)
    const replaced = await request('/__admin/faults/named', put('named', { status: 504 }))
    expect(replaced.status).toBe(200)
    expect(await list(request)).toEqual([
      { id: 1, status: 502 },
      { id: 2, name: 'named', status: 504 },
    ])
    expect((await request('/__admin/faults/named', { method: 'DELETE' })).status).toBe(204)
    // A reset goes back to the start-up rules: the name is gone with its rule.
    await request('/__admin/faults/named', put('named', { status: 504 }))
    await request('/__admin/reset', { method: 'POST' })
    expect((await request('/__admin/faults/named', { method: 'DELETE' })).status).toBe(404)
  })

  it.each([
    [
      { id: 1, name: '7', status: 500 },
      'faults.0.name "7" is digits only, which is a rule id; a name needs another character',
    ],
    [{ id: 1, name: '..', status: 500 }, 'faults.0.name must be 1 to 64 of A-Z a-z 0-9 . _ -, not . or .. (got "..")'],
    [
      [
        { id: 1, name: 'a', status: 500 },
        { id: 2, name: 'a', status: 501 },
      ],
      'faults.1.name a is already used by faults.0',
    ],
  ])('a snapshot with a bad or repeated name is refused, naming it', async (faults, message) => {
    const { request } = contractApp({ pets })
    const res = await request(
      '/__admin/snapshot',
      admin({ format: 1, pets: [], faults: Array.isArray(faults) ? faults : [faults] }, 'PUT'),
    )
    expect(res.status).toBe(400)
    expect(((await res.json()) as { message: string }).message).toContain(message)
  })

  it('each session has its own names', async () => {
    const { request } = contractApp({ pets })
    expect((await request('/__admin/faults/a', put('a', { status: 500 }, 'one'))).status).toBe(201)
    expect((await request('/__admin/faults/a', put('a', { status: 500 }, 'two'))).status).toBe(201)
    expect((await request('/__admin/faults/a', put('a', { status: 501 }, 'one'))).status).toBe(200)
  })
})
