import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { firstItemEnd } from '../../../src/core/coverage/pact-record.js'

describe('firstItemEnd', () => {
  it('finds the end of the first item of any JSON array text, whatever its strings hold', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 5 }), fc.boolean(), (items, spaced) => {
        const text = spaced ? JSON.stringify(items, null, 2) : JSON.stringify(items)
        const end = firstItemEnd(text)
        expect(end).toBeGreaterThan(0)
        expect(JSON.parse(text.slice(text.indexOf('[') + 1, end))).toEqual(JSON.parse(JSON.stringify(items[0])))
      }),
      { numRuns: 300 },
    )
  })

  it('is -1 for an empty array and for what is not an array', () => {
    for (const text of ['[]', '[ ]', '{"a":[1]}', '"[1]"', '', 'x[1]']) expect(firstItemEnd(text), text).toBe(-1)
    expect(firstItemEnd('[{"name":"a,]}\\"b"},2]')).toBe(19)
  })
})
