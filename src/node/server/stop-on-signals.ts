import { exitCodes } from '../cli/exit-codes.js'

/** What a stop signal stops: see startServer (main.ts). */
export interface Stoppable {
  /** Drains, stops accepting, finishes what is in flight and closes the store; resolves once done. */
  drain(signal: string): Promise<void>
  /** Drops every connection at once (a forced exit). */
  abandon(): void
}

/**
 * On the first SIGTERM or SIGINT the server drains (`drain`) and the process exits 0 once it is
 * done. A second signal, or `graceMs` after the first, exits at once with code 1: what was still
 * in flight loses its connection (`abandon`).
 */
export const stopOnSignals = (
  target: Stoppable,
  graceMs: number,
  log = (line: string) => process.stderr.write(line),
) => {
  let stopping = false
  const force = (why: string) => {
    log(`petstore-mock: ${why}: exiting now (code ${exitCodes.forced}), dropping what is still in flight\n`)
    target.abandon()
    process.exit(exitCodes.forced)
  }
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return force(`${signal} again`)
    stopping = true
    // unref: a drain that ends first exits by itself.
    setTimeout(() => force(`still stopping ${graceMs / 1000} s after ${signal} (--grace-seconds)`), graceMs).unref()
    log(`petstore-mock: ${signal}: draining (not ready, still serving), then stopping; send it again to stop at once\n`)
    target.drain(signal).then(
      () => process.exit(exitCodes.ok),
      (error: unknown) => force(`the stop failed: ${(error as Error)?.message ?? String(error)}`),
    )
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}
