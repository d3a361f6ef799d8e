/**
 * What the things clients make the server hold cost, in bytes, as the budget
 * counts them: estimates on the high side of what V8 takes (64-bit, no
 * pointer compression): objects, their slots in the indexes, and every text
 * at two bytes a character (V8 keeps one-byte texts at one; a text with any
 * other character at two). Counted high so that the budget is a bound on
 * the heap, not a guess of it. test/core/budget/costs.test.ts holds them
 * above what a child process measures.
 */

/** A text's cost: header and two bytes per character. */
export const textBytes = (text: string): number => 24 + 2 * text.length

/** A pet: the frozen object, its id, its slots in the list and the status index, and its name. */
export const petBytes = (pet: { name: string }): number => 136 + 2 * pet.name.length

/** Pets as a session keeps them. */
export const petsBytes = (pets: readonly { name: string }[]): number => {
  let bytes = 0
  for (const pet of pets) bytes += petBytes(pet)
  return bytes
}

/** A fault rule: its fields are numbers and one of the contract's operation names. */
export const ruleBytes = 320

/** A session's own parts (pet store, rules, generator, clock, journal ring, maps), before anything is put in them. */
export const sessionBytes = 16 * 1024

/** A rate-limit window of an API key, the key included (bounded: rate-limit.ts). */
export const rateLimitKeyBytes = (key: string): number => 160 + textBytes(key)

/** A client in the deprecation report: its counters, its redacted Authorization and User-Agent (256 characters at most). */
export const deprecationClientBytes = 1024

/** An operation's first overflow counter in the deprecation report. */
export const deprecationOverflowBytes = 128
