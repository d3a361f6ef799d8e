import { describe, expect, it } from 'vitest'
import { petBytes, textBytes } from '../../../src/core/budget/costs.js'
import { MemoryBudget } from '../../../src/core/budget/memory-budget.js'
import { insufficientStorage } from '../../../src/core/budget/insufficient-storage.js'
import { Journal } from '../../../src/core/journal/journal.js'
import { journalRecord } from '../../helpers/journal-records.js'

const entry = (n: number) =>
  journalRecord(n, { time: n, url: `http://localhost/${n}`, path: `/${n}`, operation: null, durationMs: 0 })

describe('MemoryBudget', () => {
  it('splits the budget: a quarter for the journal, the rest for the state; none: unlimited', () => {
    const budget = new MemoryBudget(4000)
    expect(budget.journalShareBytes).toBe(1000)
    expect(budget.stateShareBytes).toBe(3000)
    expect(new MemoryBudget().report()).toMatchObject({ budgetBytes: null, state: { shareBytes: null } })
  })

  it('charges the state share until it is full, then refuses with data that names the largest part, taking nothing', () => {
    const budget = new MemoryBudget(4000)
    expect(budget.charge('pets', 2000)).toBeUndefined()
    expect(budget.charge('rules', 500)).toBeUndefined()
    const refused = budget.charge('rules', 501)
    expect(refused).toEqual({
      refused: 'memory',
      part: 'rules',
      neededBytes: 501,
      freeBytes: 500,
      budgetBytes: 4000,
      largest: { part: 'pets', bytes: 2000 },
    })
    expect(budget.report().state).toEqual({
      shareBytes: 3000,
      usedBytes: 2500,
      parts: { pets: 2000, rules: 500, sessions: 0, streams: 0, deprecations: 0, rateLimits: 0 },
    })
    budget.release('pets', 2000)
    expect(budget.charge('rules', 501)).toBeUndefined()
  })

  it('counts what it cannot refuse (note), which later writes then find used', () => {
    const budget = new MemoryBudget(4000)
    budget.note('sessions', 3000)
    expect(budget.charge('pets', 1)).toMatchObject({ part: 'pets', freeBytes: 0 })
  })

  it('maps a refusal to a 507 insufficient_storage naming what is full and how to free it', () => {
    const budget = new MemoryBudget(4 * 2 ** 20)
    budget.charge('pets', 3 * 2 ** 20)
    const error = insufficientStorage(budget.charge('pets', 2 ** 20)!)
    expect(error.body).toEqual({
      code: 'insufficient_storage',
      status: 507,
      message:
        'The memory budget (4.0 MiB, --max-memory) is full: pets need 1.0 MiB more and 0.00 MiB is free; pets hold ' +
        'the most (3.0 MiB). Nothing was changed. To free it, reset sessions (POST /__admin/reset) or delete them ' +
        '(DELETE /__admin/sessions/{name}); or start with a larger --max-memory.',
    })
  })
})

describe("the journal's share", () => {
  it('drops the oldest entries of any session to make room, never refusing one', () => {
    const budget = new MemoryBudget(4 * 6000)
    const a = new Journal(100, budget)
    const b = new Journal(100, budget)
    for (let i = 0; i < 5; i++) a.record(entry(i))
    const perEntry = budget.report().journal.usedBytes / 5
    const room = Math.floor(6000 / perEntry)
    for (let i = 0; i < room; i++) b.record(entry(100 + i))
    // b's entries took the room of a's oldest, a's newest are kept, in order.
    expect(a.size + b.size).toBe(room)
    expect(b.size).toBe(room)
    expect(a.size).toBe(0)
    expect(budget.report().journal.usedBytes).toBeLessThanOrEqual(6000)
    b.record(entry(999))
    expect(b.list()[0]!.time).toBe(999)
    expect(b.list().at(-1)!.time).toBe(101)
  })

  it("interleaved sessions: the oldest go first whichever journal holds them; a ring's own drop gives its bytes back", () => {
    const budget = new MemoryBudget(4 * 3000)
    const a = new Journal(3, budget)
    const b = new Journal(100, budget)
    for (let i = 0; i < 10; i++) (i % 2 === 0 ? a : b).record(entry(i))
    const { usedBytes, entries } = budget.report().journal
    expect(entries).toBe(a.size + b.size)
    expect(usedBytes).toBeLessThanOrEqual(3000)
    // What is kept is the newest of each: b's from 9 down without a gap, a's from 8 down.
    const times = (journal: Journal) => journal.list().map((record) => record.time)
    expect(times(b)).toEqual([9, 7, 5, 3, 1].slice(0, b.size))
    expect(times(a)).toEqual([8, 6, 4].slice(0, a.size))
    expect(a.size + b.size).toBeLessThan(8)
    a.clear()
    b.clear()
    expect(budget.report().journal).toEqual({ shareBytes: 3000, usedBytes: 0, entries: 0 })
  })

  it('lets go of the queue of released charges (no growth over a long run)', () => {
    const budget = new MemoryBudget(Infinity)
    const a = new Journal(10, budget)
    for (let i = 0; i < 50_000; i++) a.record(entry(i))
    expect(budget.report().journal.entries).toBe(10)
  })
})

describe('costs by how V8 keeps a text', () => {
  it('counts a Latin-1 text at 2 bytes a character, any other at 4', () => {
    expect(textBytes('n'.repeat(10))).toBe(24 + 20)
    expect(textBytes('é'.repeat(10))).toBe(24 + 20)
    expect(textBytes('ж'.repeat(10))).toBe(24 + 40)
    expect(petBytes({ name: 'ab😀' })).toBe(136 + 4 * 4)
  })
})
