import { describe, expect, it } from 'vitest'
import type { PactSeed } from '../../../src/core/coverage/pact-seed.js'
import { KnownInteractions } from '../../../src/node/store/redis/known-interactions.js'
import { RedisSession, type SessionContext } from '../../../src/node/store/redis/redis-session.js'

/** A replica's context whose scripts answer as told, and what it was asked. */
const replica = (replies: number[]) => {
  const calls: (string | number)[][] = []
  const ctx = {
    prefix: 'p',
    knownInteractions: new KnownInteractions(),
    run: (name: string, ...args: (string | number)[]) => {
      calls.push([name, ...args])
      return Promise.resolve(replies.shift() ?? 1)
    },
  } as unknown as SessionContext
  return { ctx, calls }
}

const seed: PactSeed = { operation: 'getPet', method: 'GET', path: '/v1/pets/1', authorized: true, status: 200 }

const note = () => {
  const made = { n: 0 }
  return { made, note: { key: 'getPet 200 id=1', seed: () => (made.n++, seed) } }
}

const settle = () => new Promise((resolve) => setImmediate(resolve))

const counters = Object.freeze(['getPet 200'])

/** Counts the interaction once in each session named, letting each count's script answer before the next. */
const countIn = async (ctx: SessionContext, sessions: string[], interaction: ReturnType<typeof note>['note']) => {
  for (const name of sessions) {
    new RedisSession(ctx, name).countCoverage(counters, interaction)
    await settle()
  }
}

describe("coverage on Redis: an interaction's seed is sent until the replica has seen it kept", () => {
  it('sends the seed the first time, then only the key, without making the seed', async () => {
    const { ctx, calls } = replica([1, 1, 1])
    const { made, note: interaction } = note()
    new RedisSession(ctx, 'a').countCoverage(counters, interaction)
    await settle()
    new RedisSession(ctx, 'a').countCoverage(counters, interaction)
    new RedisSession(ctx, 'a').countCoverage(counters, interaction)
    await settle()
    expect(calls).toEqual([
      ['psCountCoverage', 'p:s:a:', 1, 'getPet 200', 'getPet 200 id=1', JSON.stringify(seed), 200],
      ['psCountCoverage', 'p:s:a:', 1, 'getPet 200', 'getPet 200 id=1', '', 200],
      ['psCountCoverage', 'p:s:a:', 1, 'getPet 200', 'getPet 200 id=1', '', 200],
    ])
    expect(made.n).toBe(1)
  })

  it('when Redis no longer keeps it (2: cleared, maybe by another replica), sends the seed at once, counting nothing twice', async () => {
    const { ctx, calls } = replica([1, 2, 1, 1])
    const { note: interaction } = note()
    await countIn(ctx, ['a', 'a', 'a'], interaction)
    expect(calls.map((call) => call.slice(2, 6))).toEqual([
      [1, 'getPet 200', 'getPet 200 id=1', JSON.stringify(seed)],
      [1, 'getPet 200', 'getPet 200 id=1', ''],
      [0, 'getPet 200 id=1', JSON.stringify(seed), 200],
      [1, 'getPet 200', 'getPet 200 id=1', ''],
    ])
  })

  it('another session, or one left out beyond the bound (0), gets its seed sent again', async () => {
    const { ctx, calls } = replica([0, 0, 1])
    const { note: interaction } = note()
    await countIn(ctx, ['a', 'a', 'b'], interaction)
    expect(calls.map((call) => [call[1], call[5]])).toEqual([
      ['p:s:a:', JSON.stringify(seed)],
      ['p:s:a:', JSON.stringify(seed)],
      ['p:s:b:', JSON.stringify(seed)],
    ])
  })

  it('keeps at most its cap of ids: emptied whole when full', () => {
    const known = new KnownInteractions(3)
    for (const id of ['a', 'b', 'c']) known.add(id)
    expect(['a', 'b', 'c'].map((id) => known.has(id))).toEqual([true, true, true])
    known.add('d')
    expect(['a', 'b', 'c', 'd'].map((id) => known.has(id))).toEqual([false, false, false, true])
  })
})
