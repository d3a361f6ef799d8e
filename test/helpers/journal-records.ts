import type { JournalRecord } from '../../src/core/journal/journal.js'
import type { JournalEntry } from '../../src/core/journal/journal-entry.js'

/**
 * A journal record as a stage would store it, for tests that fill a journal directly: the `i`-th
 * `GET /v1/pets/{i}` answered 200 by getPet, with what a test needs changed in `fields`.
 */
export const journalRecord = (
  i: number,
  fields: Partial<Omit<JournalRecord, 'id'>> = {},
): Omit<JournalRecord, 'id'> => ({
  time: 0,
  method: 'GET',
  url: `http://localhost/v1/pets/${i}`,
  path: `/v1/pets/${i}`,
  headers: [],
  operation: 'getPet',
  status: 200,
  durationMs: 1,
  ...fields,
})

/**
 * A journal entry as the admin API shows it (the typed client and the panel read these): a
 * `GET /v1/pets` answered 200 by listPets at second `second` of a fixed minute, with what a test
 * needs changed in `fields`.
 */
export const journalEntry = (
  id: number,
  second = id,
  fields: Partial<Omit<JournalEntry, 'id'>> = {},
): JournalEntry => ({
  id,
  time: `2030-01-01T00:00:${String(second).padStart(2, '0')}.000Z`,
  method: 'GET',
  path: '/v1/pets',
  query: {},
  headers: {},
  operation: 'listPets',
  status: 200,
  durationMs: 1,
  ...fields,
})
