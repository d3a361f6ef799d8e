import type { JournalEntry } from '../../src/panel/types.js'

/** A listPets journal entry recorded at second `second` of a fixed minute. */
export const journalEntry = (id: number, second = id): JournalEntry => ({
  id,
  time: `2030-01-01T00:00:${String(second).padStart(2, '0')}.000Z`,
  method: 'GET',
  path: '/v1/pets',
  query: {},
  headers: {},
  operation: 'listPets',
  status: 200,
  durationMs: 1,
})
