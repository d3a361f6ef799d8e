import type { Redis } from 'ioredis'
import { ReplyError } from 'ioredis'
import type { redisScriptNames } from '../../../generated/redis-scripts.js'
import { batchFunction, batchLibrary, batchScript } from './lua-program.js'

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
  /** Calls made and not answered yet: waiting for their turn's batch, or sent and waiting for Redis. */
  pending(): number
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
 * event loop as ONE command: FCALL of the program loaded once as a Redis
 * function ({@link batchLibrary}), or EVALSHA of it as a script
 * ({@link batchScript}, EVAL once when Redis does not know it yet: ioredis
 * `defineCommand`) where a function cannot run.
 *
 * Why one command: under load a replica's time went into ioredis's work per
 * command (a command object, a timeout timer, a promise, a reply to parse),
 * three or four per request; the requests of one turn now share one. Calls of
 * one replica still run in the order they were made, each atomic (a batch is
 * one script, so more so), and a call's own error stays its own. A batch that
 * fails as a whole (Redis away, timed out) rejects each of its calls with
 * that error, which the store answers as 503.
 *
 * Why a function: a script makes its helpers and scripts again on every run,
 * ~11 µs of Redis' CPU per batch; a function's are made once, at its load.
 * Redis refuses a function as a whole, before it runs, where a script would
 * have run and been refused only its writes (used memory past maxmemory,
 * NOREPLICAS, a read-only replica): such a batch, which ran nothing, is sent
 * again as the script, so the store answers those cases as before (reads go
 * on, writes 507/503). A Redis that has lost the function (restarted without
 * its data, FUNCTION FLUSH) gets it loaded again; one that cannot load it
 * (before 7, or a user not allowed to) gets the script.
 */
export const defineScripts = (client: Redis): RunScript => {
  client.defineCommand('psBatch', { numberOfKeys: 0, lua: batchScript })
  const script = client as unknown as { psBatch(argv: (string | number)[]): Promise<Reply[]> }
  // ioredis flattens its arguments one level (Command: args.flat()): the list goes as it is, unspread.
  const fcall = client.call as unknown as (command: string, ...args: unknown[]) => Promise<Reply[]>
  let scriptOnly = false
  let loading: Promise<void> | undefined
  // Sent before the first FCALL, on the same connection: Redis has the function when it comes.
  const load = () =>
    (loading ??= client.call('FUNCTION', ['LOAD', 'REPLACE', batchLibrary]).then(
      () => undefined,
      (error: unknown) => {
        loading = undefined
        if (error instanceof ReplyError && /unknown command|NOPERM|no permissions/i.test(String(error)))
          scriptOnly = true
      },
    ))
  const sendBatch = (argv: (string | number)[]): Promise<Reply[]> => {
    if (scriptOnly) return script.psBatch(argv)
    void load()
    return fcall.call(client, 'FCALL', batchFunction, 0, argv).catch((error: unknown) => {
      if (!(error instanceof ReplyError)) throw error
      if (/function not found/i.test(String(error))) loading = undefined
      return script.psBatch(argv)
    })
  }
  let queue: Call[] = []
  let hooks: (() => void)[] = []
  let scheduled = false
  let sent = 0
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
    sent += calls.length
    sendBatch(argv).then(
      (replies) => {
        sent -= calls.length
        calls.forEach((call, k) => {
          const reply = replies[2 * k + 1] ?? null
          if (replies[2 * k] === 1) call.resolve(reply)
          else call.reject(new ReplyError(String(reply)))
        })
      },
      (error: unknown) => {
        sent -= calls.length
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
    pending: () => queue.length + hooks.length + sent,
  })
}
