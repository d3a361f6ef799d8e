import { describe, expect, it } from 'vitest'
import { Journal } from '../../../src/core/journal/journal.js'
import { journalRecord } from '../../helpers/journal-records.js'

const entry = (i: number, operation = 'listPets', status = 200) => journalRecord(i, { operation, status })

describe('Journal', () => {
  it('keeps only the newest entries, newest first', () => {
    const journal = new Journal(3)
    for (let i = 1; i <= 10; i++) journal.record(entry(i))
    expect(journal.size).toBe(3)
    expect(journal.list().map((e) => e.path)).toEqual(['/v1/pets/10', '/v1/pets/9', '/v1/pets/8'])
    expect(journal.list().map((e) => e.id)).toEqual([10, 9, 8])
  })

  it('filters by operation and status, then limits', () => {
    const journal = new Journal(10)
    journal.record(entry(1, 'getPet', 404))
    journal.record(entry(2, 'listPets', 200))
    journal.record(entry(3, 'getPet', 200))
    journal.record(entry(4, 'getPet', 404))
    expect(journal.list({ operation: 'getPet' }).map((e) => e.id)).toEqual([4, 3, 1])
    expect(journal.list({ status: 404, limit: 1 }).map((e) => e.id)).toEqual([4])
  })

  it('clears, and a zero-size journal keeps nothing', () => {
    const journal = new Journal(2)
    journal.record(entry(1))
    journal.clear()
    expect(journal.list()).toEqual([])
    const none = new Journal(0)
    none.record(entry(1))
    expect(none.list()).toEqual([])
  })
})
