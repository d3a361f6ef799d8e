/**
 * Whether `given` equals one of `accepted`, in a time that depends only on
 * the length of `given` and the number of accepted values: every value is
 * compared in full, with no early exit, so response times say nothing about
 * how much of a secret a guess got right, nor which one. Runtime-neutral
 * (no node:crypto).
 */
export const equalsAny = (given: string, accepted: readonly string[]): boolean => {
  let matches = 0
  for (const value of accepted) matches |= equals(given, value)
  return matches === 1
}

// XOR over the length of the guess: the secret's length is never a loop bound, and a length
// difference alone makes the difference non-zero.
const equals = (given: string, secret: string): 0 | 1 => {
  let difference = given.length ^ secret.length
  const length = secret.length || 1
  for (let i = 0; i < given.length; i++) difference |= given.charCodeAt(i) ^ (secret.charCodeAt(i % length) | 0)
  return difference === 0 ? 1 : 0
}
