import { describe, expect, it } from 'vitest'
import { edgeBlock, edgeKinds, edgeKindOf, longNameChars } from '../../../src/core/pets/edge-profile.js'
import { petLimitProblem } from '../../../src/core/pets/pet-limits.js'
import { fakePets } from '../../../src/index.js'
import { spec } from '../../helpers/contract.js'

const validatePet = spec.componentValidator('Pet')
const chars = (text: string) => [...text].length

describe('the edge data profile', () => {
  it('1,000 pets: every one a valid Pet within the mock’s caps, ids 1..1000', async () => {
    const pets = await fakePets(1000, 1, 'edge')
    expect(pets.map((p) => p.id)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1))
    for (const pet of pets) {
      expect(validatePet(pet), JSON.stringify(pet)).toBe(true)
      expect(petLimitProblem(pet)).toBeUndefined()
    }
  })

  it('in known proportions: 50 % realistic, 5 % of each of the ten edge kinds, one of each per block of 20', async () => {
    const pets = await fakePets(1000, 1, 'edge')
    const kinds = pets.map((pet, i) => (i % 2 === 0 ? 'realistic' : (edgeKindOf(pet) ?? 'noStatus')))
    const counts: Record<string, number> = {}
    for (const kind of kinds) counts[kind] = (counts[kind] ?? 0) + 1
    expect(counts).toEqual({ realistic: 500, ...Object.fromEntries(edgeKinds.map((k) => [k, 50])) })
    for (let block = 0; block < 1000; block += edgeBlock) {
      expect(new Set(kinds.slice(block, block + edgeBlock).filter((k) => k !== 'realistic'))).toEqual(
        new Set(edgeKinds),
      )
    }
    // The even places are the realistic pets, as --faker alone makes them (names of faker's pet list).
    expect(pets.filter((_, i) => i % 2 === 0).every((p) => /^[A-Za-z .'-]{1,20}$/.test(p.name))).toBe(true)
    expect(pets.filter((_, i) => i % 2 === 1 && kinds[i] === 'noStatus').every((p) => p.status === undefined)).toBe(
      true,
    )
  })

  it('holds what the realistic profile never has: long, accented, CJK, right-to-left, emoji, blank and HTML-like names, int64 edges', async () => {
    const realistic = await fakePets(1000, 1)
    const edge = await fakePets(1000, 1, 'edge')
    const summary = (pets: typeof edge) => ({
      distinct: new Set(pets.map((p) => p.name)).size,
      longest: Math.max(...pets.map((p) => chars(p.name))),
      nonAscii: pets.some((p) => /[^\x00-\x7f]/.test(p.name)),
    })
    expect(summary(realistic).longest).toBeLessThan(20)
    expect(summary(realistic).nonAscii).toBe(false)
    expect(summary(edge).longest).toBe(longNameChars)
    expect(summary(edge).distinct).toBeGreaterThan(summary(realistic).distinct)
    const names = edge.map((p) => p.name)
    expect(names.filter((n) => chars(n) === 200).some((n) => !n.includes(' '))).toBe(true)
    expect(names.some((n) => /\p{M}/u.test(n))).toBe(true)
    expect(names.some((n) => /\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}|\p{Script=Hangul}/u.test(n))).toBe(
      true,
    )
    expect(names.some((n) => /\p{Script=Arabic}/u.test(n)) && names.some((n) => /\p{Script=Hebrew}/u.test(n))).toBe(
      true,
    )
    expect(names.some((n) => /\p{Extended_Pictographic}/u.test(n))).toBe(true)
    expect(names.some((n) => n.includes('\u200d'))).toBe(true)
    expect(names.some((n) => n !== '' && n.trim() === '')).toBe(true)
    expect(names.some((n) => /^<script>/.test(n))).toBe(true)
    expect(edge.some((p) => p.categoryId === 9007199254740991)).toBe(true)
    expect(edge.some((p) => p.categoryId === -9007199254740991)).toBe(true)
    expect(edge.some((p) => p.status === undefined)).toBe(true)
  })

  it('is deterministic per seed: the same seed and count, the same pets; another seed, another order', async () => {
    expect(await fakePets(200, 5, 'edge')).toEqual(await fakePets(200, 5, 'edge'))
    expect(await fakePets(200, 6, 'edge')).not.toEqual(await fakePets(200, 5, 'edge'))
    // A shorter run is the start of a longer one.
    expect(await fakePets(30, 5, 'edge')).toEqual((await fakePets(200, 5, 'edge')).slice(0, 30))
  })

  it('the default profile is what --faker always made', async () => {
    expect(await fakePets(50, 3, 'realistic')).toEqual(await fakePets(50, 3))
  })
})
