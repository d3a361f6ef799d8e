import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { fakePets, readFixtures, SeedError } from '../../../src/index.js'

const defaultFixturesPath = fileURLToPath(new URL('../../../fixtures/pets.yaml', import.meta.url))
import { auth, contractApp, postJson, spec } from '../../helpers/contract.js'

const validatePet = spec.componentValidator('Pet')
const dir = mkdtempSync(join(tmpdir(), 'petstore-seed-'))
const file = (name: string, text: string) => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

describe('bundled fixtures', () => {
  it('hold at most 20 valid pets covering every status and one without', () => {
    const pets = readFixtures(defaultFixturesPath, validatePet)
    expect(pets.length).toBeGreaterThan(0)
    expect(pets.length).toBeLessThanOrEqual(20)
    expect(new Set(pets.map((p) => p.status))).toEqual(new Set(['available', 'pending', 'sold', undefined]))
  })
})

describe('--fixtures files', () => {
  it.each([
    ['array.json', '[{"id":3,"name":"a","categoryId":1},{"id":1,"name":"b","categoryId":2,"status":"sold"}]'],
    ['object.json', '{"pets":[{"id":3,"name":"a","categoryId":1},{"id":1,"name":"b","categoryId":2,"status":"sold"}]}'],
    ['array.yaml', '- {id: 3, name: a, categoryId: 1}\n- {id: 1, name: b, categoryId: 2, status: sold}\n'],
    ['object.yml', 'pets:\n  - {id: 3, name: a, categoryId: 1}\n  - {id: 1, name: b, categoryId: 2, status: sold}\n'],
  ])('%s loads', (name, text) => {
    expect(readFixtures(file(name, text), validatePet)).toEqual([
      { id: 3, name: 'a', categoryId: 1 },
      { id: 1, name: 'b', categoryId: 2, status: 'sold' },
    ])
  })

  it.each([
    [
      'dup.yaml',
      '- {id: 1, name: a, categoryId: 1}\n- {id: 1, name: b, categoryId: 1}\n',
      'entry 1: id 1 is already used by entry 0',
    ],
    [
      'unsafe.yaml',
      '- {id: 1, name: a, categoryId: 9007199254740993}\n',
      'entry 0: categoryId must be an integer between -9007199254740991 and 9007199254740991',
    ],
    [
      'unsafe.json',
      '[{"id": 9007199254740993, "name": "a", "categoryId": 1}]',
      'entry 0: id must be an integer between -9007199254740991 and 9007199254740991',
    ],
    ['noname.json', '[{"id": 1, "categoryId": 1}]', 'entry 0: name is required'],
    [
      'badstatus.yaml',
      '- {id: 1, name: a, categoryId: 1, status: lost}\n',
      'entry 0: status must be one of available, pending, sold',
    ],
    ['zero.yaml', '- {id: 0, name: a, categoryId: 1}\n', 'entry 0: id must be a positive integer (got 0)'],
    ['broken.json', '[{"id": 1,', 'not valid JSON'],
    ['broken.yaml', 'pets: [ {id: 1\n', 'not valid YAML'],
    ['shape.yaml', 'pet: 1\n', 'must be an array of pets or { pets: [...] }'],
  ])('%s is refused, naming the file, entry and field', (name, text, message) => {
    const path = file(name, text)
    expect(() => readFixtures(path, validatePet)).toThrow(SeedError)
    expect(() => readFixtures(path, validatePet)).toThrow(`${path}: `)
    expect(() => readFixtures(path, validatePet)).toThrow(message)
  })

  it('new ids continue after the largest seeded id', async () => {
    const pets = readFixtures(
      file('gap.yaml', '- {id: 40, name: a, categoryId: 1}\n- {id: 7, name: b, categoryId: 1}\n'),
      validatePet,
    )
    const { request } = contractApp({ pets })
    expect((await (await request('/v1/pets', postJson({ name: 'n', categoryId: 1 }))).json()).id).toBe(41)
  })
})

describe('faker seeding', () => {
  it('is byte-identical for the same seed and count', async () => {
    expect(JSON.stringify(await fakePets(200, 42))).toBe(JSON.stringify(await fakePets(200, 42)))
    expect(JSON.stringify(await fakePets(200, 42))).not.toBe(JSON.stringify(await fakePets(200, 43)))
  })

  it('matches a recorded sample, so a faker upgrade that changes data is noticed', async () => {
    expect(await fakePets(3, 1)).toMatchSnapshot()
  })

  it('gives valid pets with ids 1..count, statuses spread across the enum', async () => {
    const pets = await fakePets(400, 7)
    expect(pets.map((p) => p.id)).toEqual(Array.from({ length: 400 }, (_, i) => i + 1))
    for (const pet of pets) expect(validatePet(pet)).toBe(true)
    const counts = new Map<string | undefined, number>()
    for (const pet of pets) counts.set(pet.status, (counts.get(pet.status) ?? 0) + 1)
    for (const status of ['available', 'pending', 'sold']) expect(counts.get(status)).toBeGreaterThan(60)
  })

  it('serves faker data through the API', async () => {
    const { request } = contractApp({ pets: await fakePets(50, 3) })
    const list = await (await request('/v1/pets?limit=100', { headers: auth() })).json()
    expect(list).toEqual(await fakePets(50, 3))
  })
})

describe('a seed of 100,000 pets does not hold other clients (issue 29)', () => {
  it.each([
    ['realistic', {}],
    ['edge', { data: 'edge' }],
  ])('%s: a request of another session sent after it starts is answered before it ends', async (_, profile) => {
    const { request } = contractApp()
    const order: string[] = []
    const seeding = request('/__admin/seed', {
      ...postJson({ count: 100_000, ...profile }),
      headers: { 'Content-Type': 'application/json', 'X-Mock-Session': 'big' },
    }).then((res) => (order.push('seed'), res.status))
    // Sent once the seed has begun generating (faker loaded, the first slice under way).
    await new Promise((resolve) => setTimeout(resolve, 20))
    const read = request('/v1/pets/1', { headers: auth({ 'X-Mock-Session': 'other' }) }).then(
      (res) => (order.push('read'), res.status),
    )
    expect(await Promise.all([seeding, read])).toEqual([204, 200])
    expect(order).toEqual(['read', 'seed'])
  })
})
