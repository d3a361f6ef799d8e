import { PerformanceObserver } from 'node:perf_hooks'
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8'
import { flagGiven } from './heap-flags.js'

/**
 * The semi-space size, MiB, the bin holds V8's young generation to: the image's `CMD` runs with
 * `--max-semi-space-size=4`, and `node dist/bin.js` now behaves alike. Left alone, Node 24 doubles a
 * semi-space from 1 up to 64 MiB under a load whose objects survive (created pets, journal entries):
 * 128 MiB committed, RSS after 200,000 POSTs 229–250 MiB against about 140. At 1 MiB the journal's
 * entries outlive it and every request costs about 20 % more CPU (docs/internals/performance.md).
 */
export const youngSemiSpaceMiB = 4

const MiB = 2 ** 20

/** V8's default doubling (`--semi-space-growth-factor`), and the factor that makes a growth change nothing. */
const doubling = 2
const holding = 1

/**
 * The flags by which the user sizes the young generation: given any, the process keeps V8's own
 * sizing. `--max-semi-space-size` itself cannot be set once V8 runs (V8 reads it when it makes the
 * heap), hence the growth factor below.
 */
const youngGenerationFlags = ['max-semi-space-size', 'min-semi-space-size', 'semi-space-growth-factor']

/** Whether the user sized the young generation (`NODE_OPTIONS` or the command line). */
export const youngGenerationGiven = (execArgv: readonly string[], nodeOptions = ''): boolean =>
  youngGenerationFlags.some((name) => flagGiven(execArgv, nodeOptions, name))

/** The capacity of one semi-space now, bytes: what the young generation holds before a scavenge. */
export const semiSpaceBytes = (): number => {
  const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')
  return space === undefined ? 0 : space.space_used_size + space.space_available_size
}

/**
 * The growth factor for a semi-space of `bytes`: V8's doubling while a doubling stays within
 * `limitMiB`, else a factor of 1, with which V8's `Grow()` computes the capacity it already has. (A
 * semi-space of 4 MiB reports a little less: 4095 KiB, its pages' headers.)
 */
export const growthFactorFor = (bytes: number, limitMiB = youngSemiSpaceMiB): number =>
  2 * bytes > limitMiB * MiB ? holding : doubling

/**
 * Holds the young generation at {@link youngSemiSpaceMiB} per semi-space, as
 * `--max-semi-space-size=4` would, in a process started without it: V8 reads
 * `--semi-space-growth-factor` each time it grows the young generation, so after each collection
 * the factor is set to 1 once a semi-space has reached the size (a growth then keeps the size), and
 * back to 2 below it (V8 shrinks an idle young generation; it grows back as before). Returns what
 * stops it; undefined when the user sized the young generation. The bin's only, as heap-growth.ts.
 */
export const holdYoungGeneration = (execArgv: readonly string[], nodeOptions?: string): (() => void) | undefined => {
  if (youngGenerationGiven(execArgv, nodeOptions)) return undefined
  let factor = doubling
  const adjust = () => {
    const next = growthFactorFor(semiSpaceBytes())
    if (next === factor) return
    factor = next
    setFlagsFromString(`--semi-space-growth-factor=${next}`)
  }
  // One entry per collection, delivered after it, in the event loop's turn (it keeps nothing alive).
  const observer = new PerformanceObserver(adjust)
  observer.observe({ entryTypes: ['gc'] })
  // A start already grows it (to 4 MiB here): held from the first collection to come, not the second.
  adjust()
  return () => {
    observer.disconnect()
    if (factor !== doubling) setFlagsFromString(`--semi-space-growth-factor=${doubling}`)
  }
}
