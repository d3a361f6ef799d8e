import { describe, expect, it } from 'vitest'
import { type Session, SessionRegistry } from '../../../src/core/sessions/memory-store.js'
import { startWorld } from '../../../src/core/sessions/world.js'
import { isOutcome, type Selection } from '../../../src/core/sessions/lifecycle.js'
import { MemoryBudget } from '../../../src/core/budget/memory-budget.js'
import { onePet } from '../../helpers/fixtures.js'

// SessionStore.discardMade on the memory store (issue 40: a change refused with 507 in the session its
// request made leaves none): the session goes only while no other selection has used it. The same on
// Redis: test/node/store/redis-lifecycle.test.ts; through the routes: refused-writes.test.ts.
const start = (now: () => number = Date.now) => ({
  world: startWorld({ pets: onePet(), faults: [], latency: undefined, seed: 1 }),
  maxPets: 100,
  journalSize: 10,
  sessions: { ttlMs: 60_000, now },
  budget: new MemoryBudget(2 ** 20),
})

const made = (selection: Selection<Session>): Session => {
  if (!isOutcome(selection) || selection.outcome !== 'created')
    throw new Error(`not made: ${JSON.stringify(selection)}`)
  return selection.session
}

const names = (sessions: SessionRegistry) => sessions.sessions().map((s) => s.name)

describe('SessionRegistry.discardMade', () => {
  it('drops a session no other selection used since it was made: its place under the cap and its bytes back', () => {
    const sessions = new SessionRegistry(start(), 1)
    const before = sessions.memory().state.usedBytes
    const a = made(sessions.select('a', 'use'))
    expect(sessions.memory().state.usedBytes).toBeGreaterThan(before)
    expect(sessions.discardMade(a)).toBe(true)
    expect(names(sessions)).toEqual(['default'])
    expect(sessions.stats().sessions).toBe(1)
    expect(sessions.memory().state.usedBytes).toBe(before)
    // Once only; and the place is free again.
    expect(sessions.discardMade(a)).toBe(false)
    expect(isOutcome(sessions.select('b', 'use'))).toBe(true)
    expect(names(sessions)).toEqual(['default', 'b'])
  })

  for (const mode of ['use', 'read'] as const) {
    it(`keeps a session another request selected (${mode}) since it was made, on the fast path's next turn too`, () => {
      const sessions = new SessionRegistry(start(), 3)
      const a = made(sessions.select('a', 'use'))
      expect(sessions.select('a', mode)).toBe(a)
      expect(sessions.select('a', mode)).toBe(a)
      expect(sessions.discardMade(a)).toBe(false)
      expect(names(sessions)).toEqual(['default', 'a'])
    })
  }

  it('keeps one made again after a drop, and a session it did not make', () => {
    const sessions = new SessionRegistry(start(), 3)
    const first = made(sessions.select('a', 'use'))
    expect(sessions.dropSession('a')).toBe(true)
    const second = made(sessions.select('a', 'use'))
    expect(sessions.discardMade(first)).toBe(false)
    expect(names(sessions)).toEqual(['default', 'a'])
    expect(sessions.discardMade(sessions.select('default', 'use') as Session)).toBe(false)
    expect(sessions.discardMade(second)).toBe(true)
    expect(names(sessions)).toEqual(['default'])
  })

  it('keeps the recency order: a session made last is the most recent, one used after it more so', () => {
    const sessions = new SessionRegistry(start(), 3)
    sessions.select('default', 'use')
    made(sessions.select('b', 'use'))
    expect(names(sessions)).toEqual(['default', 'b'])
    sessions.select('default', 'use')
    expect(names(sessions)).toEqual(['b', 'default'])
  })

  it('puts back the tombstone a revive cleared', () => {
    let now = 1_000_000
    const sessions = new SessionRegistry(
      start(() => now),
      3,
    )
    made(sessions.select('gone', 'use'))
    now += 120_000
    expect(sessions.select('gone', 'use')).toMatchObject({ outcome: 'expired' })
    const [stone] = sessions.tombstones()
    const revived = made(sessions.select('gone', 'revive'))
    expect(sessions.tombstones()).toEqual([])
    expect(sessions.discardMade(revived)).toBe(true)
    expect(sessions.tombstones()).toEqual([stone])
    expect(sessions.select('gone', 'use')).toEqual({ outcome: 'expired', tombstone: stone })
  })
})
