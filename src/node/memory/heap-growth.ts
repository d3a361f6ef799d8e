import { setFlagsFromString } from 'node:v8'
import { flagGiven } from './heap-flags.js'

/**
 * The step by which V8's old space may grow past what was live at its last full collection, in
 * percent, as the server runs it. Where the heap limit is 2 GB or more (Node's default on any
 * machine with 8 GB), V8 lets the old space grow up to 4 times the live size before it collects
 * again; below that, 1.3 to 2 times. A mock's heap is mostly what it keeps (pets, journal
 * entries), so at 4 times, 200,000 created pets (24 MiB live) left the process at 186–222 MiB
 * of RSS, and V8 gives nothing back while the server idles. At 50 %, 139–143 MiB, for about as
 * much collection work as the journal's copies cost before they were shared
 * (core/journal/repeated-parts.ts). The figures are in docs/reference/robustness.md.
 */
export const heapGrowingPercent = 50

const flagName = 'heap-growing-percent'

/**
 * The V8 flag that sets {@link heapGrowingPercent}, or undefined when the process was given its own
 * (`NODE_OPTIONS` or the command line, either spelling: V8 reads `-` and `_` alike).
 */
export const heapGrowthFlag = (execArgv: readonly string[], nodeOptions = ''): string | undefined =>
  flagGiven(execArgv, nodeOptions, flagName) ? undefined : `--${flagName}=${heapGrowingPercent}`

/**
 * Sets V8's heap growth step for this process ({@link heapGrowthFlag}); V8 reads it at each full
 * collection, so setting it once the process runs takes effect from the next one. The bin's only:
 * an app embedded in another process leaves that process's heap alone.
 */
export const applyHeapGrowth = (execArgv: readonly string[], nodeOptions?: string): string | undefined => {
  const flag = heapGrowthFlag(execArgv, nodeOptions)
  if (flag !== undefined) setFlagsFromString(flag)
  return flag
}
