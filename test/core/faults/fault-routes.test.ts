import { describe, expect, it } from 'vitest'
import { maxFaultRules } from '../../../src/core/faults/fault-rules.js'
import { delayedAtLeast } from '../../helpers/asked-delay.js'
import { auth, contractApp, postJson } from '../../helpers/contract.js'

const pets = [{ id: 1, name: 'a', categoryId: 1 }]
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
      message: `The session holds ${maxFaultRules} fault rules, the most it may; delete some first.`,
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
