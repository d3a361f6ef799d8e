import type { JournalEntry } from '../types.js'

/** Most rows the panel keeps: the server's default journal size. */
export const maxRows = 1000

/** Identifies an entry across reloads; ids restart when a session is reset, times do not repeat them. */
export const entryKey = (entry: JournalEntry): string => `${entry.id}@${entry.time}`

const newestFirst = (a: JournalEntry, b: JournalEntry): number =>
  a.time === b.time ? b.id - a.id : a.time < b.time ? 1 : -1

/**
 * Adds entries (from the history or the event stream) to the rows: each entry
 * once, newest on top, at most `limit` rows. Returns the same array when
 * nothing is new, so a render can be skipped.
 */
export const mergeEntries = (
  rows: readonly JournalEntry[],
  incoming: readonly JournalEntry[],
  limit = maxRows,
): readonly JournalEntry[] => {
  const known = new Set(rows.map(entryKey))
  const fresh = incoming.filter((entry) => {
    const key = entryKey(entry)
    if (known.has(key)) return false
    known.add(key)
    return true
  })
  if (fresh.length === 0) return rows
  return [...fresh, ...rows].sort(newestFirst).slice(0, limit)
}
