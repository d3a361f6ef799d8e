/**
 * Whether a parsed value holds more than `limit` values in all, counting
 * what aliases share each time it is reached (as validation and copying
 * will): stops counting at the limit, so linear in the limit at worst.
 */
export const exceedsValues = (value: unknown, limit: number): boolean => {
  const pending: unknown[] = [value]
  let count = 0
  while (pending.length > 0) {
    const next = pending.pop()
    if (++count > limit) return true
    // One at a time: spreading an array of a million items overflows the stack.
    if (next && typeof next === 'object') for (const item of Object.values(next)) pending.push(item)
  }
  return false
}
