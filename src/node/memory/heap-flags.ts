/**
 * The V8 heap the memory budget needs, as Node flags. V8 lets its heap grow well past what is live
 * before it collects (with Node's default heap: 714 MiB of RSS for a 256 MiB budget), and its young
 * generation alone commits up to 2 × 64 MiB on Node 24. So the process runs with an old space of
 * 7/8 of the budget, and at least half of it plus 64 MiB for the server's own objects (the budget
 * counts every text at two bytes a character, about twice what the usual one-byte texts take), and
 * 8 MiB semi-spaces. Measured on the hostile battery: peak RSS ≈ the old space + 75–85 MiB.
 */

const MiB = 2 ** 20

/** The semi-space size the server runs with, MiB: the young generation then commits at most 3 × 8. */
export const semiSpaceMiB = 8

/** What the process takes besides its old space, MiB: the young generation (3 × 8), code, stacks, buffers. */
export const beyondOldSpaceMiB = 104

/** The heap flags a process was started with (from `process.execArgv` and `NODE_OPTIONS`), MiB. */
export interface HeapFlags {
  oldSpaceMiB?: number
  semiSpaceMiB?: number
}

const flagValue = (words: readonly string[], name: string): number | undefined => {
  let value: number | undefined
  for (let i = 0; i < words.length; i++) {
    // V8 reads - and _ alike, and the value after = or as the next word.
    const word = words[i]!.replace(/_/g, '-')
    if (word === `--${name}`) value = Number(words[i + 1])
    else if (word.startsWith(`--${name}=`)) value = Number(word.slice(name.length + 3))
  }
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined
}

/** Whether `--name` is given in `NODE_OPTIONS` or on the command line, either spelling (V8 reads `-` and `_` alike). */
export const flagGiven = (execArgv: readonly string[], nodeOptions: string, name: string): boolean =>
  [...nodeOptions.split(/\s+/), ...execArgv].some((word) => {
    const spelled = word.replace(/_/g, '-')
    return spelled === `--${name}` || spelled.startsWith(`--${name}=`)
  })

/** The heap flags in effect: `NODE_OPTIONS` first, the command line's after it (the later one wins, as in Node). */
export const heapFlagsOf = (execArgv: readonly string[], nodeOptions = ''): HeapFlags => {
  const words = [...nodeOptions.split(/\s+/).filter(Boolean), ...execArgv]
  const oldSpaceMiB = flagValue(words, 'max-old-space-size')
  const semi = flagValue(words, 'max-semi-space-size')
  return { ...(oldSpaceMiB !== undefined && { oldSpaceMiB }), ...(semi !== undefined && { semiSpaceMiB: semi }) }
}

/** The old space (`--max-old-space-size`, MiB) a budget of `budgetMiB` runs with: 7/8 of it, at least half of it + 64. */
export const oldSpaceFor = (budgetMiB: number): number =>
  Math.max(Math.ceil((budgetMiB * 7) / 8), Math.ceil(budgetMiB / 2) + 64)

/** The largest budget whose old space ({@link oldSpaceFor}) fits in `oldSpaceMiB`; at least 16 MiB. */
export const budgetForOldSpace = (oldSpaceMiB: number): number =>
  Math.max(16, Math.min(Math.floor((oldSpaceMiB * 8) / 7), 2 * Math.floor(oldSpaceMiB - 64)))

/** The largest budget whose process ({@link oldSpaceFor} + {@link beyondOldSpaceMiB}) fits in a memory limit. */
export const budgetForLimit = (limitBytes: number): number =>
  budgetForOldSpace(Math.floor(limitBytes / MiB) - beyondOldSpaceMiB)

/**
 * The flags to start the server again with so that its heap fits its budget, or none. Only a bounded
 * budget (`--max-memory`, a container limit, or `--max-old-space-size`) asks for them, and only those
 * missing: a heap flag the user gave is kept as given.
 */
export const relaunchFlags = (budgetMiB: number, bounded: boolean, flags: HeapFlags): string[] => {
  if (!bounded) return []
  return [
    ...(flags.oldSpaceMiB === undefined ? [`--max-old-space-size=${oldSpaceFor(budgetMiB)}`] : []),
    ...(flags.semiSpaceMiB === undefined ? [`--max-semi-space-size=${semiSpaceMiB}`] : []),
  ]
}
