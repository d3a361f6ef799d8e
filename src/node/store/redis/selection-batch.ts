import type { Reply, RunScript } from './commands.js'

/** One selection waiting for its turn's batch: its read's arguments, and who waits for the answer. */
interface Waiting {
  read: readonly (string | number)[]
  resolve: (reply: Reply) => void
  reject: (error: unknown) => void
}

/**
 * The selections of one turn of the event loop, one call per session (psSessions in
 * scripts/sessions.lua) just before the turn's batch leaves (commands.ts `beforeSend`); a session
 * selected once in the turn is one psSession call, as before.
 *
 * Why: under load a turn holds tens of requests of the same few sessions, and each selection cost
 * Redis about 10 µs (the clock, the registry, the meta, the rule count: four commands and the Lua
 * around them) to answer what the one before it in the same batch had just answered. The answers
 * are those of the same selections made one after the other: nothing runs between them.
 */
export class SelectionBatch {
  readonly #run: RunScript
  #turn = new Map<string, { common: readonly (string | number)[]; waiting: Waiting[] }>()

  constructor(run: RunScript) {
    this.#run = run
  }

  /**
   * psSession's answer for `common` (its first seven arguments: the same for every request of a
   * session and mode) and `read` (the read named ahead: its arguments from the eighth on).
   */
  select(common: readonly (string | number)[], read: readonly (string | number)[]): Promise<Reply> {
    return new Promise((resolve, reject) => {
      if (this.#turn.size === 0) this.#run.beforeSend(() => this.#send())
      const key = common.join('\n')
      let group = this.#turn.get(key)
      if (group === undefined) this.#turn.set(key, (group = { common, waiting: [] }))
      group.waiting.push({ read, resolve, reject })
    })
  }

  #send(): void {
    const turn = this.#turn
    this.#turn = new Map()
    for (const { common, waiting } of turn.values()) {
      if (waiting.length === 1) {
        const [one] = waiting as [Waiting]
        this.#run('psSession', common, one.read).then(one.resolve, one.reject)
        continue
      }
      const args: (string | number)[] = [...common]
      for (const { read } of waiting) args.push(read.length, ...read)
      this.#run('psSessions', args).then(
        (reply) => waiting.forEach((w, k) => w.resolve((reply as Reply[])[k] ?? null)),
        (error: unknown) => {
          for (const w of waiting) w.reject(error)
        },
      )
    }
  }
}
