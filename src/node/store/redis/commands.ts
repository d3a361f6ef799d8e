import type { Redis } from 'ioredis'
import { ReplyError } from 'ioredis'
import type { redisScriptNames } from '../../../generated/redis-scripts.js'
import { batchScript } from './lua-program.js'

/** The name of one of the store's scripts. */
export type ScriptName = (typeof redisScriptNames)[number]

/** A reply as ioredis gives it: strings, integers, nil, and arrays of them. */
export type Reply = string | number | null | Reply[]

/** One argument, or many as one list (a state load's 300,000: spread as arguments, they overflow the stack). */
export type ScriptArg = string | number | readonly (string | number)[]

/**
 * Runs one script by name, with its ARGV (no KEYS: see lua-program.ts); lists are flattened in place.
 * `beforeSend(hook)`: the hook runs once, just before the turn's batch leaves, and may add calls to
 * it (what a replica gathers over a turn, coverage counts, leaves as one call: coverage-batch.ts).
 */
export type RunScript = ((name: ScriptName, ...args: ScriptArg[]) => Promise<Reply>) & {
  beforeSend(hook: () => void): void
}

/** Most calls in one batch: beyond, the batch leaves and the next one starts. */
const maxBatchCalls = 256

interface Call {
  name: ScriptName
  args: (string | number)[]
  resolve: (reply: Reply) => void
  reject: (error: unknown) => void
}

/**
 * A caller of the store's scripts that sends the calls made in one turn of the
 * event loop as ONE command (EVALSHA of {@link batchScript}, EVAL once when
 * Redis does not know it yet: ioredis `defineCommand`).
 *
 * Why: under load a replica's time went into ioredis's work per command (a
 * command object, a timeout timer, a promise, a reply to parse), three or
 * four per request; the requests of one turn now share one. Calls of one
 * replica still run in the order they were made, each atomic (a batch is one
 * script, so more so), and a call's own error stays its own. A batch that
 * fails as a whole (Redis away, timed out) rejects each of its calls with
 * that error, which the store answers as 503.
 */
export const defineScripts = (client: Redis): RunScript => {
  client.defineCommand('psBatch', { numberOfKeys: 0, lua: batchScript })
  const send = client as unknown as { psBatch(argv: (string | number)[]): Promise<Reply[]> }
  let queue: Call[] = []
  let hooks: (() => void)[] = []
  let scheduled = false
  const schedule = () => {
    if (scheduled) return
    scheduled = true
    setImmediate(flush)
  }
  const flush = () => {
    scheduled = false
    while (hooks.length > 0) {
      const now = hooks
      hooks = []
      for (const hook of now) hook()
    }
    const calls = queue
    queue = []
    if (calls.length === 0) return
    const argv: (string | number)[] = []
    for (const call of calls) {
      argv.push(call.name, call.args.length)
      for (const arg of call.args) argv.push(arg)
    }
    send.psBatch(argv).then(
      (replies) => {
        calls.forEach((call, k) => {
          const reply = replies[2 * k + 1] ?? null
          if (replies[2 * k] === 1) call.resolve(reply)
          else call.reject(new ReplyError(String(reply)))
        })
      },
      (error: unknown) => {
        for (const call of calls) call.reject(error)
      },
    )
  }
  const run = (name: ScriptName, ...list: ScriptArg[]) =>
    new Promise<Reply>((resolve, reject) => {
      const args: (string | number)[] = []
      for (const arg of list) {
        if (typeof arg === 'object') for (const item of arg) args.push(item)
        else args.push(arg)
      }
      schedule()
      queue.push({ name, args, resolve, reject })
      if (queue.length >= maxBatchCalls) flush()
    })
  return Object.assign(run, {
    beforeSend(hook: () => void) {
      hooks.push(hook)
      schedule()
    },
  })
}
