import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type Pet } from '../../../src/core/spec/pet.js'
import { PetIndex } from '../../../src/core/pets/pet-index.js'
import { PetStore } from '../../../src/core/pets/pet-store.js'
import { toJsonText } from '../../../src/core/http/known-json.js'

// FC_SEED replays a failing run (its seed is printed).
const fcSeed = process.env['FC_SEED'] === undefined ? undefined : Number(process.env['FC_SEED'])
const runs = (numRuns: number): fc.Parameters<unknown> => ({ numRuns, ...(fcSeed !== undefined && { seed: fcSeed }) })

const seed: Pet[] = [
  { id: 10, name: 'j', categoryId: 1, status: 'sold' },
  { id: 2, name: 'b', categoryId: 1, status: 'available' },
  { id: 7, name: 'g', categoryId: 1 },
]

describe('PetStore', () => {
  it('lists seed then created pets ascending by id, by status too', () => {
    const store = new PetStore(PetIndex.from(seed), 100)
    const created = store.create({ name: 'k', categoryId: 2, status: 'sold' })
    expect(created).toEqual({ id: 11, name: 'k', categoryId: 2, status: 'sold' })
    expect(store.list(10).map((p) => p.id)).toEqual([2, 7, 10, 11])
    expect(store.list(10, 'sold').map((p) => p.id)).toEqual([10, 11])
    expect(store.list(1, 'sold').map((p) => p.id)).toEqual([10])
    expect(store.list(10, 'pending')).toEqual([])
  })

  it('answers undefined for an absent id', () => {
    const store = new PetStore(PetIndex.from(seed), 100)
    expect(store.get(3)).toBeUndefined()
    expect(store.get(7)).toEqual(seed[2])
  })

  it('never changes the shared base', () => {
    const base = PetIndex.from(seed)
    const a = new PetStore(base, 100)
    const b = new PetStore(base, 100)
    a.create({ name: 'only-a', categoryId: 1 })
    expect(b.get(11)).toBeUndefined()
    expect(b.size).toBe(3)
    expect(base.size).toBe(3)
  })

  it('refuses beyond capacity and keeps what it has', () => {
    const store = new PetStore(PetIndex.from(seed), 4)
    expect(store.create({ name: 'x', categoryId: 1 })).not.toBe('full')
    expect(store.create({ name: 'y', categoryId: 1 })).toBe('full')
    expect(store.size).toBe(4)
  })

  it('refuses when the next id would not be a safe integer', () => {
    const store = new PetStore(PetIndex.from([{ id: Number.MAX_SAFE_INTEGER, name: 'm', categoryId: 1 }]), 100)
    expect(store.create({ name: 'x', categoryId: 1 })).toBe('full')
  })

  it('starts ids at 1 when empty', () => {
    const store = new PetStore(PetIndex.from([]), 100)
    expect(store.create({ name: 'x', categoryId: 1 })).toEqual({ id: 1, name: 'x', categoryId: 1 })
  })

  it('returns frozen pets so a caller cannot change stored data', () => {
    const store = new PetStore(PetIndex.from([]), 100)
    const pet = store.create({ name: 'x', categoryId: 1 }) as Pet
    expect(Object.isFrozen(pet)).toBe(true)
  })
})

describe('PetIndex lookups by id', () => {
  const pet = (id: number): Pet => ({ id, name: `p${id}`, categoryId: 1 })

  it.each([
    ['dense from 1', [1, 2, 3, 4, 5]],
    ['dense from 1000', [1000, 1001, 1002]],
    ['sparse', [2, 7, 10, 11, 500, 9007199254740991]],
    ['one pet', [42]],
  ])('%s: every id found, every other one missed', (_, ids) => {
    const index = PetIndex.from(ids.map(pet))
    for (const id of ids) expect(index.get(id)?.id).toBe(id)
    for (const id of [0, -1, 3.5, ids[0]! - 1, ids.at(-1)! + 1, 6, 12, 499, 501, Number.NaN]) {
      if (!ids.includes(id)) expect(index.get(id)).toBeUndefined()
    }
  })

  it('an empty index finds nothing', () => {
    expect(new PetIndex().get(1)).toBeUndefined()
  })

  it('any increasing ids: each found, the gaps missed (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 10_000 }), { maxLength: 200 }), (raw) => {
        const ids = [...raw].sort((a, b) => a - b)
        const index = PetIndex.from(ids.map(pet))
        const present = new Set(ids)
        for (let id = 0; id <= 10_001; id += 7) expect(index.get(id)?.id).toBe(present.has(id) ? id : undefined)
        for (const id of ids) expect(index.get(id)?.id).toBe(id)
      }),
      runs(200),
    )
  })
})

describe('PetStore: the last page listed, answered again with its JSON text', () => {
  it('is the same page, with the text JSON.stringify writes, until a pet is created', () => {
    const store = new PetStore(PetIndex.from(seed), 100)
    const first = store.list(2)
    expect(store.list(2)).toBe(first)
    expect(toJsonText(first)).toBe(JSON.stringify(first.map((pet) => ({ ...pet }))))
    store.create({ name: 'k', categoryId: 2, status: 'sold' })
    // Another query, or a create, lists afresh.
    expect(store.list(2, 'sold')).not.toBe(first)
    const sold = store.list(2, 'sold')
    expect(sold.map((p) => p.id)).toEqual([10, 11])
    expect(toJsonText(sold)).toBe(JSON.stringify(sold))
    store.create({ name: 'l', categoryId: 2, status: 'sold' })
    expect(store.list(3, 'sold').map((p) => p.id)).toEqual([10, 11, 12])
    expect(store.list(5).map((p) => p.id)).toEqual([2, 7, 10, 11, 12])
  })

  it('lists, over any creates and lists, what a fresh list of every pet says, with its text', () => {
    const statuses = [undefined, 'available', 'pending', 'sold'] as const
    const step = fc.oneof(
      fc.record({ create: fc.constantFrom(...statuses) }),
      fc.record({ limit: fc.integer({ min: 1, max: 6 }), status: fc.constantFrom(...statuses) }),
    )
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const store = new PetStore(PetIndex.from(seed), 1000)
        for (const s of steps) {
          if ('create' in s) {
            store.create({ name: 'n', categoryId: 1, ...(s.create !== undefined && { status: s.create }) })
            continue
          }
          const expected = store
            .all()
            .filter((pet) => s.status === undefined || pet.status === s.status)
            .slice(0, s.limit)
          const page = store.list(s.limit, s.status)
          expect(page).toEqual(expected)
          expect(toJsonText(page)).toBe(JSON.stringify(expected))
        }
      }),
      runs(200),
    )
  })
})
