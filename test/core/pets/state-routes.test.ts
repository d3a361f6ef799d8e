import { describe, expect, it } from 'vitest'
import { fakePets } from '../../../src/index.js'
import { auth, contractApp, postJson } from '../../helpers/contract.js'
import { onePet } from '../../helpers/fixtures.js'

const pets = [
  { id: 1, name: 'a', categoryId: 1, status: 'sold' as const },
  { id: 2, name: 'b', categoryId: 2 },
]
const json = (body: unknown, method = 'POST', headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
})

describe('state control', () => {
  it('GET /__admin/state returns every pet', async () => {
    const { request } = contractApp({ pets })
    await request('/v1/pets', postJson({ name: 'c', categoryId: 3 }))
    expect(await (await request('/__admin/state')).json()).toEqual({
      pets: [...pets, { id: 3, name: 'c', categoryId: 3 }],
    })
  })

  it('PUT /__admin/state replaces the pets; new ids continue after the largest', async () => {
    const { request } = contractApp({ pets })
    const res = await request('/__admin/state', json({ pets: [{ id: 10, name: 'z', categoryId: 1 }] }, 'PUT'))
    expect(res.status).toBe(204)
    expect(await (await request('/v1/pets', { headers: auth() })).json()).toEqual([
      { id: 10, name: 'z', categoryId: 1 },
    ])
    expect((await (await request('/v1/pets', postJson({ name: 'n', categoryId: 1 }))).json()).id).toBe(11)
  })

  it.each([
    [{ pets: [{ id: 1, name: 'a' }] }, 'state: entry 0: categoryId is required.'],
    [
      {
        pets: [
          { id: 1, name: 'a', categoryId: 1 },
          { id: 1, name: 'b', categoryId: 1 },
        ],
      },
      'state: entry 1: id 1 is already used by entry 0.',
    ],
    [
      { pets: [{ id: 1, name: 'a', categoryId: 1, status: 'x' }] },
      'state: entry 0: status must be one of available, pending, sold.',
    ],
    [onePet(), 'state: must be { "pets": [...] }.'],
    [
      '{"pets":[{"id":1,"name":"a","categoryId":9007199254740993}]}',
      'state: entry 0: categoryId must be an integer between -9007199254740991 and 9007199254740991.',
    ],
  ])('PUT %j → 400 naming the entry and field, nothing replaced', async (body, message) => {
    const { request } = contractApp({ pets })
    const res = await request('/__admin/state', json(body, 'PUT'))
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ code: 'bad_request', message, status: 400 })
    expect(await (await request('/__admin/state')).json()).toEqual({ pets })
  })

  it('PUT beyond capacity is a 507 and replaces nothing', async () => {
    const { request } = contractApp({ pets, maxPets: 1 })
    const res = await request('/__admin/state', json({ pets }, 'PUT'))
    expect(res.status).toBe(507)
    expect(await (await request('/__admin/state')).json()).toEqual({ pets })
  })

  it('POST /__admin/seed replaces the pets with faker data, deterministically', async () => {
    const { request } = contractApp({ pets })
    expect((await request('/__admin/seed', json({ count: 30, seed: 9 }))).status).toBe(204)
    expect(await (await request('/__admin/state')).json()).toEqual({ pets: await fakePets(30, 9) })
  })

  it('POST /__admin/seed with data edge: the edge profile, every pet answered within the contract (on every store)', async () => {
    const { request } = contractApp({ pets })
    expect((await request('/__admin/seed', json({ count: 40, seed: 9, data: 'edge' }))).status).toBe(204)
    const edge = await fakePets(40, 9, 'edge')
    expect(await (await request('/__admin/state')).json()).toEqual({ pets: edge })
    // `request` checks every answer against the contract: the list, and each pet read alone.
    expect(await (await request('/v1/pets?limit=40', { headers: auth() })).json()).toEqual(edge)
    for (const pet of edge) expect(await (await request(`/v1/pets/${pet.id}`, { headers: auth() })).json()).toEqual(pet)
    expect((await request('/__admin/seed', json({ count: 5, data: 'realistic' }))).status).toBe(204)
    expect(await (await request('/__admin/state')).json()).toEqual({ pets: await fakePets(5, 1) })
  })

  it.each([
    [{ count: 5, data: 'weird' }, 'data must be one of realistic, edge.'],
    [{}, 'count must be an integer between 0 and 100000.'],
    [{ count: -1 }, 'count must be an integer between 0 and 100000.'],
    [{ count: 5, seed: 'x' }, 'seed must be an integer between 0 and 4294967295.'],
    [{ count: 5, size: 1 }, 'size is not a known field.'],
    [null, 'count must be an integer between 0 and 100000.'],
  ])('POST /__admin/seed %j → 400', async (body, message) => {
    const { request } = contractApp({ pets })
    const res = await request('/__admin/seed', json(body))
    expect(res.status).toBe(400)
    expect((await res.json()).message).toBe(message)
  })

  it('POST /__admin/reset goes back to the start-up state: pets, rules, journal, id counter', async () => {
    const { request } = contractApp({ pets, faults: [{ operation: 'getPet', status: 500, times: 1 }] })
    await request('/v1/pets', postJson({ name: 'c', categoryId: 3 }))
    await request('/v1/pets/1', { headers: auth() })
    await request('/__admin/faults', json({ status: 503 }))
    expect((await request('/__admin/reset', { method: 'POST' })).status).toBe(204)
    expect(await (await request('/__admin/state')).json()).toEqual({ pets })
    expect(await (await request('/__admin/faults')).json()).toEqual({
      faults: [{ id: 1, operation: 'getPet', status: 500, times: 1, remaining: 1 }],
    })
    expect(await (await request('/__admin/requests')).json()).toEqual({ requests: [], next: 0, dropped: 0 })
    expect((await (await request('/v1/pets', postJson({ name: 'd', categoryId: 3 }))).json()).id).toBe(3)
  })
})
