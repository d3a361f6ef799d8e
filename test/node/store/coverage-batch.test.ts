import { describe, expect, it } from 'vitest'
import type { PactSeed } from '../../../src/core/coverage/pact-seed.js'
import type { RunScript } from '../../../src/node/store/redis/commands.js'
import { CoverageBatch } from '../../../src/node/store/redis/coverage-batch.js'
import { KnownInteractions } from '../../../src/node/store/redis/known-interactions.js'

/** A replica's script runner whose calls answer as told (one code per interaction), and what it was asked. */
const replica = (replies: number[][]) => {
  const calls: (string | number)[][] = []
  let hooks: (() => void)[] = []
  const run = Object.assign(
    (name: string, ...args: (string | number | (string | number)[])[]) => {
      calls.push([name, ...args.flat()])
      return Promise.resolve(replies.shift() ?? [1])
    },
    {
      beforeSend(hook: () => void) {
        hooks.push(hook)
        // As commands.ts: the hooks run once the turn is over, just before its batch leaves.
        if (hooks.length === 1)
          setImmediate(() => {
            const now = hooks
            hooks = []
            for (const h of now) h()
          })
      },
    },
  ) as unknown as RunScript
  return { batch: new CoverageBatch(run, new KnownInteractions()), calls }
}

const seed: PactSeed = { operation: 'getPet', method: 'GET', path: '/v1/pets/1', authorized: true, status: 200 }

const note = () => {
  const made = { n: 0 }
  return { made, note: { key: 'getPet 200 id=1', seed: () => (made.n++, seed) } }
}

const settle = () => new Promise((resolve) => setImmediate(() => setImmediate(resolve)))

const counters = Object.freeze(['getPet 200'])

/** Counts the interaction once in each session named, letting each count's script answer before the next. */
const countIn = async (batch: CoverageBatch, sessions: string[], interaction: ReturnType<typeof note>['note']) => {
  for (const name of sessions) {
    batch.count(`p:s:${name}:`, counters, interaction)
    await settle()
  }
}

describe('coverage on Redis: counted in the replica over a turn, one call per session', () => {
  it("adds up a turn's requests: each counter by its count, each interaction asked about once", async () => {
    const { batch, calls } = replica([[1, 1]])
    const other = { key: 'listPets 200', seed: () => ({ ...seed, operation: 'listPets' }) }
    const { note: interaction } = note()
    batch.count('p:s:a:', counters, interaction)
    batch.count('p:s:a:', [...counters, 'getPet 200 id'], interaction)
    batch.count('p:s:a:', ['listPets 200'], other)
    batch.count('p:s:b:', counters)
    await settle()
    expect(calls).toEqual([
      [
        'psCountCoverage',
        'p:s:a:',
        3,
        'getPet 200',
        2,
        'getPet 200 id',
        1,
        'listPets 200',
        1,
        2,
        'getPet 200 id=1',
        JSON.stringify(seed),
        2,
        'listPets 200',
        JSON.stringify({ ...seed, operation: 'listPets' }),
        1,
        200,
      ],
      ['psCountCoverage', 'p:s:b:', 1, 'getPet 200', 1, 0, 200],
    ])
  })
})

describe("coverage on Redis: an interaction's seed is sent until the replica has seen it kept", () => {
  it('sends the seed the first time, then only the key, without making the seed', async () => {
    const { batch, calls } = replica([[1], [1]])
    const { made, note: interaction } = note()
    batch.count('p:s:a:', counters, interaction)
    await settle()
    batch.count('p:s:a:', counters, interaction)
    batch.count('p:s:a:', counters, interaction)
    await settle()
    expect(calls).toEqual([
      ['psCountCoverage', 'p:s:a:', 1, 'getPet 200', 1, 1, 'getPet 200 id=1', JSON.stringify(seed), 1, 200],
      ['psCountCoverage', 'p:s:a:', 1, 'getPet 200', 2, 1, 'getPet 200 id=1', '', 2, 200],
    ])
    expect(made.n).toBe(1)
  })

  it('when Redis no longer keeps it (2: cleared, maybe by another replica), sends the seed at once, counting nothing twice', async () => {
    const { batch, calls } = replica([[1], [2], [1], [1]])
    const { note: interaction } = note()
    await countIn(batch, ['a', 'a', 'a'], interaction)
    expect(calls.map((call) => call.slice(2))).toEqual([
      [1, 'getPet 200', 1, 1, 'getPet 200 id=1', JSON.stringify(seed), 1, 200],
      [1, 'getPet 200', 1, 1, 'getPet 200 id=1', '', 1, 200],
      [0, 1, 'getPet 200 id=1', JSON.stringify(seed), 1, 200],
      [1, 'getPet 200', 1, 1, 'getPet 200 id=1', '', 1, 200],
    ])
  })

  it('another session, or one left out beyond the bound (0), gets its seed sent again', async () => {
    const { batch, calls } = replica([[0], [0], [1]])
    const { note: interaction } = note()
    await countIn(batch, ['a', 'a', 'b'], interaction)
    expect(calls.map((call) => [call[1], call[7]])).toEqual([
      ['p:s:a:', JSON.stringify(seed)],
      ['p:s:a:', JSON.stringify(seed)],
      ['p:s:b:', JSON.stringify(seed)],
    ])
  })
})

describe('the interactions a replica saw kept on Redis (known-interactions.ts)', () => {
  it('keeps at most its cap of ids: emptied whole when full', () => {
    const known = new KnownInteractions(3)
    for (const id of ['a', 'b', 'c']) known.add(id)
    expect(['a', 'b', 'c'].map((id) => known.has(id))).toEqual([true, true, true])
    known.add('d')
    expect(['a', 'b', 'c', 'd'].map((id) => known.has(id))).toEqual([false, false, false, true])
  })
})
