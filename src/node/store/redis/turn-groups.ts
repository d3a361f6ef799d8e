import type { Reply, RunScript } from './commands.js'

/** One call waiting for its turn's batch: its own arguments, and who waits for its answer. */
export interface Waiting {
  args: readonly (string | number)[]
  resolve: (reply: Reply) => void
  reject: (error: unknown) => void
}

/** How a group leaves: runs its call (or calls) with the group's common arguments, and answers each waiting call. */
export type SendGroup = (run: RunScript, common: readonly (string | number)[], waiting: readonly Waiting[]) => void

/**
 * Calls of one turn of the event loop gathered by their common arguments (a session, and what the
 * calls share there), each group sent by `send` just before the turn's batch leaves (commands.ts
 * `beforeSend`): as one call where the script can do a group's work once (the selections of a
 * session: psSessions; its journal entries: psRecords), so that Redis does per session and turn
 * what it did per request. Groups leave in the order they were first called; a group's calls keep
 * theirs.
 */
export class TurnGroups {
  readonly #run: RunScript
  readonly #send: SendGroup
  #turn = new Map<string, { common: readonly (string | number)[]; waiting: Waiting[] }>()

  constructor(run: RunScript, send: SendGroup) {
    this.#run = run
    this.#send = send
  }

  /** The answer to a call with `common` (the group's arguments) and its own `args`. */
  add(common: readonly (string | number)[], args: readonly (string | number)[]): Promise<Reply> {
    return new Promise((resolve, reject) => {
      if (this.#turn.size === 0) this.#run.beforeSend(() => this.#flush())
      const key = common.join('\n')
      let group = this.#turn.get(key)
      if (group === undefined) this.#turn.set(key, (group = { common, waiting: [] }))
      group.waiting.push({ args, resolve, reject })
    })
  }

  #flush(): void {
    const turn = this.#turn
    this.#turn = new Map()
    for (const { common, waiting } of turn.values()) this.#send(this.#run, common, waiting)
  }
}

const rejectEach =
  (waiting: readonly Waiting[]) =>
  (error: unknown): void => {
    for (const w of waiting) w.reject(error)
  }

/**
 * A session's selections of a turn (common: psSession's first seven arguments; each call's own: its
 * read named ahead): one alone is psSession as before, several are psSessions, which answers each
 * as psSession called for each in turn would.
 *
 * Why: under load a turn holds tens of requests of the same few sessions, and each selection cost
 * Redis about 10 µs (the clock, the registry, the meta, the rule count: four commands and the Lua
 * around them) to answer what the one before it in the same batch had just answered.
 */
export const sendSelections: SendGroup = (run, common, waiting) => {
  if (waiting.length === 1) {
    const [one] = waiting as [Waiting]
    run('psSession', common, one.args).then(one.resolve, one.reject)
    return
  }
  const args: (string | number)[] = [...common]
  for (const { args: read } of waiting) args.push(read.length, ...read)
  run('psSessions', args).then(
    (reply) => waiting.forEach((w, k) => w.resolve((reply as Reply[])[k] ?? null)),
    rejectEach(waiting),
  )
}

/**
 * A session's journal entries of a turn (common: base, journal size, prefix, share, pool; each
 * call's own: the entry's JSON after its id, and its cost), in the order they were made, as one
 * psRecords: the ids follow each other from the first it answers.
 *
 * Why: each entry kept on its own cost Redis its id, its place in the shared order, its charge and
 * the ring's oldest as eight or nine commands; a turn's entries of a session share them.
 */
export const sendRecords: SendGroup = (run, common, waiting) => {
  for (let from = 0; from < waiting.length; from += maxEntriesPerCall) {
    const some = waiting.slice(from, from + maxEntriesPerCall)
    const args: (string | number)[] = [...common]
    for (const w of some) args.push(...w.args)
    run('psRecords', args).then((first) => some.forEach((w, k) => w.resolve(Number(first) + k)), rejectEach(some))
  }
}

/**
 * Most entries in one psRecords: Lua's `unpack` of a call's entries (LPUSH) and their places in the
 * shared order (ZADD, twice as many values) must stay well within Lua's C stack (8,000 values).
 */
export const maxEntriesPerCall = 500
