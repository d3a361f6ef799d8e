/** The edit distance (insertions, deletions, substitutions) between two strings. */
const distance = (a: string, b: string): number => {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = row
  }
  return previous[b.length]!
}

/**
 * The known flag closest to a mistyped one (both without dashes), or undefined when none is close:
 * within a third of the longer name's length in edits (at least 2); a flag that starts with it counts as 1.5 edits at most.
 */
export const closestFlag = (typed: string, known: readonly string[]): string | undefined => {
  let best: { flag: string; score: number } | undefined
  for (const flag of known) {
    const score =
      flag.startsWith(typed) && typed.length >= 3 ? Math.min(1.5, distance(typed, flag)) : distance(typed, flag)
    if (score <= Math.max(2, Math.floor(Math.max(typed.length, flag.length) / 3)) && (!best || score < best.score)) {
      best = { flag, score }
    }
  }
  return best?.flag
}
