import { describe, expect, it } from 'vitest'
import { containsValue, describeEntry, describeMatcher } from '../../src/client/request-filter.js'
import { journalEntry } from '../helpers/journal-records.js'

describe('request filters', () => {
  it.each([
    [{ a: 1, b: { c: [1, { d: 2 }] } }, { b: { c: [1, {}] } }, true],
    [{ a: 1 }, { a: 1, b: undefined }, true],
    [{ a: 1 }, { a: '1' }, false],
    [{ a: [1, 2] }, { a: [1] }, false],
    [{ a: null }, { a: {} }, false],
    [[{ a: 1 }], {}, false],
    ['text', 'text', true],
    [Number.NaN, Number.NaN, true],
    [undefined, {}, false],
  ])('containsValue(%j, %j) is %s', (actual, expected, result) => {
    expect(containsValue(actual, expected)).toBe(result)
  })

  it('describe filters and entries on one line', () => {
    expect(describeMatcher({ path: /^\/v1\/pets\/\d+$/, method: 'get' })).toBe(
      '{"path":"/^\\\\/v1\\\\/pets\\\\/\\\\d+$/","method":"get"}',
    )
    expect(describeMatcher(() => true)).toBe('the predicate (anonymous)')
    const entry = journalEntry(4, 4, { time: '', query: { status: 'sold', x: ['1', '2'] }, status: 0 })
    expect(describeEntry(entry)).toBe('#4 GET /v1/pets?status=sold&x=1&x=2 → 0 (listPets)')
    expect(describeEntry({ ...entry, path: '/nope', query: {}, operation: null, status: 404 })).toBe(
      '#4 GET /nope → 404',
    )
  })
})
