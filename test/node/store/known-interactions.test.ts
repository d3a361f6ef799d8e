import { describe, expect, it } from 'vitest'
import { KnownInteractions } from '../../../src/node/store/redis/known-interactions.js'

// What it spares (seeds not made nor sent again) is tested with the coverage batch (coverage-batch.test.ts).
describe('the interactions a replica saw kept on Redis', () => {
  it('keeps at most its cap of ids: emptied whole when full', () => {
    const known = new KnownInteractions(3)
    for (const id of ['a', 'b', 'c']) known.add(id)
    expect(['a', 'b', 'c'].map((id) => known.has(id))).toEqual([true, true, true])
    known.add('d')
    expect(['a', 'b', 'c', 'd'].map((id) => known.has(id))).toEqual([false, false, false, true])
  })
})
