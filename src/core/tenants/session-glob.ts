/**
 * Session-name globs (`*` any run of characters, `?` one), as admin tokens
 * and tenants name the sessions they reach.
 */

/**
 * Whether `name` matches the glob (`*` any run, `?` one character), in time
 * linear in the lengths: the classic two-pointer walk, which backtracks only
 * to the last star (a regular expression of `*a*a*a*b` backtracks
 * exponentially on a name of many `a`s).
 */
export const globMatches = (pattern: string, name: string): boolean => {
  let p = 0
  let n = 0
  let star = -1
  let resume = 0
  while (n < name.length) {
    const c = pattern[p]
    if (c === '?' || (c !== undefined && c !== '*' && c === name[n])) {
      p++
      n++
    } else if (c === '*') {
      star = p++
      resume = n
    } else if (star >= 0) {
      p = star + 1
      n = ++resume
    } else return false
  }
  while (pattern[p] === '*') p++
  return p === pattern.length
}

/**
 * Whether some name matches both globs: a walk over pairs of positions, one
 * in each glob, where a literal or `?` consumes one character and `*` any
 * number (so at most (|a|+1)·(|b|+1) pairs are visited).
 */
export const globsOverlap = (a: string, b: string): boolean => {
  const seen = new Set<number>()
  const width = b.length + 1
  const visit = (i: number, j: number): boolean => {
    const key = i * width + j
    if (seen.has(key)) return false
    seen.add(key)
    if (i === a.length && j === b.length) return true
    // A star may match nothing.
    if (i < a.length && a[i] === '*' && visit(i + 1, j)) return true
    if (j < b.length && b[j] === '*' && visit(i, j + 1)) return true
    if (i === a.length || j === b.length) return false
    const x = a[i]!
    const y = b[j]!
    const literal = (c: string) => c !== '*' && c !== '?'
    if (literal(x) && literal(y) && x !== y) return false
    // One character consumed by both; a star stays where it is (it may match more).
    return visit(x === '*' ? i : i + 1, y === '*' ? j : j + 1)
  }
  return visit(0, 0)
}
