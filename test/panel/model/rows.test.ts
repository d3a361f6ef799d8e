import { describe, expect, it } from 'vitest'
import { entryKey, mergeEntries } from '../../../src/panel/model/rows.js'
import { journalEntry } from '../../helpers/journal-records.js'

const entry = journalEntry

describe('mergeEntries', () => {
  it('puts the newest on top, whatever the order of arrival', () => {
    const rows = mergeEntries(mergeEntries([], [entry(2, 2)]), [entry(3, 3), entry(1, 1)])
    expect(rows.map((e) => e.id)).toEqual([3, 2, 1])
  })

  it('keeps each entry once (history and stream overlap)', () => {
    const stream = mergeEntries([], [entry(3, 3), entry(4, 4)])
    const rows = mergeEntries(stream, [entry(4, 4), entry(3, 3), entry(2, 2)])
    expect(rows.map((e) => e.id)).toEqual([4, 3, 2])
  })

  it('returns the same rows when nothing is new, so nothing re-renders', () => {
    const rows = mergeEntries([], [entry(1, 1)])
    expect(mergeEntries(rows, [entry(1, 1)])).toBe(rows)
  })

  it('tells apart entries whose ids restarted after a reset', () => {
    const rows = mergeEntries(mergeEntries([], [entry(1, 1)]), [entry(1, 5)])
    expect(rows.map(entryKey)).toEqual([entryKey(entry(1, 5)), entryKey(entry(1, 1))])
  })

  it('keeps at most the limit, dropping the oldest', () => {
    const many = Array.from({ length: 30 }, (_, i) => entry(i + 1, i))
    expect(mergeEntries([], many, 10).map((e) => e.id)).toEqual([30, 29, 28, 27, 26, 25, 24, 23, 22, 21])
  })
})
