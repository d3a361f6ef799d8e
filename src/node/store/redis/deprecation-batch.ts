import {
  type DeprecationClient,
  type FirstCall,
  maxClientsPerOperation,
} from '../../../core/deprecation/deprecation-log.js'
import type { DeprecationHeard } from '../../../core/deprecation/deprecation-slice.js'
import type { Reply, RunScript } from './commands.js'

/** One client's calls of one deprecated operation over a turn: how many, the first's and the last's time. */
interface Gathered {
  operation: string
  key: string
  calls: number
  first: number
  last: number
  /** The first call's client and listener: told once whether the calls were the client's first. */
  client: DeprecationClient
  heard: DeprecationHeard
}

/** What a turn counted for one session. */
interface SessionCalls {
  name: string
  /** The prefix of the session's pool (tenant-pools.ts), whose budget a new record is counted in. */
  pool: string
  calls: Map<string, Gathered>
}

const ignore = (): void => undefined

/**
 * Calls of deprecated operations counted in the replica over one turn of the event loop, and sent
 * as one call per session just before the turn's batch leaves (commands.ts `beforeSend`), as
 * coverage is (coverage-batch.ts): with the journal entries of the same requests, which their
 * answers wait for, so a report read after an answer counts it.
 *
 * Why: counting each call on its own cost Redis a read and a write of the session's hash and
 * about 8 µs of its CPU per request of a deprecated operation (getPet); a turn under load holds
 * tens of calls of the same few clients, whose counters now leave added up. The report is the
 * same: calls summed, the first call's time kept, the last's set, a client's first call (or the
 * first beyond the cap) told once.
 */
export class DeprecationBatch {
  readonly #run: RunScript
  #sessions = new Map<string, SessionCalls>()

  constructor(run: RunScript) {
    this.#run = run
  }

  /** Counts one call of `operation` by the client whose report key is `key`, in the session at `base`. */
  count(
    session: { base: string; name: string; pool: string },
    operation: string,
    key: string,
    client: DeprecationClient,
    now: number,
    heard: DeprecationHeard,
  ): void {
    if (this.#sessions.size === 0) this.#run.beforeSend(() => this.#send())
    let calls = this.#sessions.get(session.base)
    if (calls === undefined) {
      calls = { name: session.name, pool: session.pool, calls: new Map() }
      this.#sessions.set(session.base, calls)
    }
    const id = `${operation}\n${key}`
    const gathered = calls.calls.get(id)
    if (gathered === undefined) {
      calls.calls.set(id, { operation, key, calls: 1, first: now, last: now, client, heard })
      return
    }
    gathered.calls++
    gathered.last = now
  }

  #send(): void {
    const sessions = this.#sessions
    this.#sessions = new Map()
    for (const [base, { name, pool, calls }] of sessions) {
      const gathered = [...calls.values()]
      const args: (string | number)[] = [base, pool, maxClientsPerOperation, gathered.length]
      for (const g of gathered) args.push(g.operation, g.key, g.calls, String(g.first), String(g.last))
      // A failure is the entries' to report (503): they leave in the same batch.
      this.#run('psNoteDeprecatedCalls', args).then((reply) => {
        const codes = reply as Reply[]
        gathered.forEach((g, k) => {
          const code = codes[k]
          if (code === 'client' || code === 'overflow') g.heard(code satisfies FirstCall, g.client, name)
        })
      }, ignore)
    }
  }
}
