import { type InteractionNote, maxInteractions } from '../../../core/coverage/pact-seed.js'
import type { RunScript } from './commands.js'
import type { KnownInteractions } from './known-interactions.js'

/** One interaction's requests of a turn: how many, and its seed's JSON ('' when believed kept). */
interface Gathered {
  count: number
  seed: string
  note: InteractionNote
}

/** What a turn counted for one session: each counter's requests, each interaction's. */
interface SessionCounts {
  counters: Map<string, number>
  interactions: Map<string, Gathered>
}

const ignore = (): void => undefined

/**
 * Coverage counted in the replica over one turn of the event loop, and sent as one call per
 * session just before the turn's batch leaves (commands.ts `beforeSend`): with the journal entries
 * of the same requests, which their answers wait for, so a coverage read after an answer sees it.
 *
 * Why: counting each request on its own cost Redis a script call and four or five commands
 * (HINCRBY per counter, SISMEMBER) per request; a turn under load holds tens of requests of the
 * same few operations, whose counters now leave added up (HINCRBY by n) and whose interactions are
 * asked about once. The counts are the same: the sums of what each request counted.
 */
export class CoverageBatch {
  readonly #run: RunScript
  readonly #known: KnownInteractions
  #sessions = new Map<string, SessionCounts>()

  constructor(run: RunScript, known: KnownInteractions) {
    this.#run = run
    this.#known = known
  }

  /** Counts one request of the session at `base`: its counters, and its interaction if any. */
  count(base: string, counters: readonly string[], interaction?: InteractionNote): void {
    if (this.#sessions.size === 0) this.#run.beforeSend(() => this.#send())
    let counts = this.#sessions.get(base)
    if (counts === undefined) this.#sessions.set(base, (counts = { counters: new Map(), interactions: new Map() }))
    for (const counter of counters) counts.counters.set(counter, (counts.counters.get(counter) ?? 0) + 1)
    if (interaction === undefined) return
    const gathered = counts.interactions.get(interaction.key)
    if (gathered !== undefined) {
      gathered.count++
      return
    }
    // A seed only for an interaction this replica has not seen kept (known-interactions.ts).
    const seed = this.#known.has(base + interaction.key) ? '' : JSON.stringify(interaction.seed())
    counts.interactions.set(interaction.key, { count: 1, seed, note: interaction })
  }

  #send(): void {
    const sessions = this.#sessions
    this.#sessions = new Map()
    for (const [base, counts] of sessions) {
      const args: (string | number)[] = [base, counts.counters.size]
      for (const [counter, count] of counts.counters) args.push(counter, count)
      const interactions = [...counts.interactions]
      args.push(interactions.length)
      for (const [key, gathered] of interactions) args.push(key, gathered.seed, gathered.count)
      args.push(maxInteractions)
      // A failure is the entries' to report (503): they leave in the same batch.
      this.#run('psCountCoverage', args).then((reply) => {
        const codes = reply as number[]
        interactions.forEach(([key, gathered], k) => this.#heard(base, key, gathered, codes[k]!))
      }, ignore)
    }
  }

  /** What Redis answered for an interaction: kept, left out, or its seed is needed (sent again, alone). */
  #heard(base: string, key: string, gathered: Gathered, code: number): void {
    const id = base + key
    if (code === 1) return this.#known.add(id)
    this.#known.delete(id)
    if (code !== 2) return
    const seed = JSON.stringify(gathered.note.seed())
    this.#run('psCountCoverage', [base, 0, 1, key, seed, gathered.count, maxInteractions]).then((again) => {
      if ((again as number[])[0] === 1) this.#known.add(id)
    }, ignore)
  }
}
