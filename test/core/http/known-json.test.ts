import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toJsonText, withJsonText } from '../../../src/core/http/known-json.js'
import { parsePage, parsePet, parsePets } from '../../../src/node/store/redis/codec.js'

const pet = fc.record(
  {
    id: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    name: fc.string({ unit: 'grapheme', maxLength: 40 }),
    categoryId: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
    status: fc.constantFrom('available', 'pending', 'sold'),
  },
  { requiredKeys: ['id', 'name', 'categoryId'] },
)

describe('known JSON texts (the Redis store hands the stored text on to the answer)', () => {
  it('answers JSON.stringify of an unmarked value', () => {
    expect(toJsonText({ a: 1 })).toBe('{"a":1}')
    expect(toJsonText([1, 'x'])).toBe('[1,"x"]')
    expect(toJsonText(null)).toBe('null')
  })

  it('for any pets stored as JSON.stringify wrote them, the page and the pet answer exactly what serialising them again would', () => {
    fc.assert(
      fc.property(fc.array(pet, { maxLength: 30 }), (pets) => {
        const members = pets.map((p) => JSON.stringify(p))
        const page = parsePage(`[${members.join(',')}]`)
        expect(toJsonText(page)).toBe(JSON.stringify(page))
        expect(page).toEqual(pets)
        for (const member of members) {
          const one = parsePet(member)!
          expect(toJsonText(one)).toBe(JSON.stringify(one))
        }
      }),
    )
  })

  it('the mark is invisible to JSON.stringify, Object.keys and equality', () => {
    const value = withJsonText({ id: 1 }, '{"id":1}')
    expect(JSON.stringify(value)).toBe('{"id":1}')
    expect(Object.keys(value)).toEqual(['id'])
    expect(value).toEqual({ id: 1 })
  })

  it('pages read for other uses (all pets, snapshots) are not marked', () => {
    const pets = parsePets(['{"id":1,"name":"a","categoryId":1}'])
    pets.push({ id: 2, name: 'b', categoryId: 1 })
    expect(toJsonText(pets)).toBe(JSON.stringify(pets))
  })
})
