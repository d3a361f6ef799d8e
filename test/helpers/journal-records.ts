import type { JournalRecord } from '../../src/core/journal/journal.js'

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
