/**
 * What the things clients make the server hold cost, in bytes, as the budget
 * counts them: estimates on the high side of what V8 takes (64-bit, no
 * pointer compression): objects, their slots in the indexes, and every text
 * at twice what V8 keeps of it: two bytes a character for a one-byte text
 * (Latin-1 only), four for any other. Counted high, and in the same ratio for
 * both kinds of text, so that the budget bounds the heap whatever the
 * characters: the heap is sized for it (src/node/memory/heap-flags.ts: an old
 * space of 7/8 of the budget). Measured: seeded pets hold 0.65 of their
 * cost; pets of 1,000-character names 0.6 (one-byte and two-byte alike).
 */

const twoByte = /[^\u0000-\u00ff]/

/** What a text's characters cost: two bytes each when V8 keeps it at one byte a character, else four. */
export const charBytes = (text: string): number => (twoByte.test(text) ? 4 : 2) * text.length

/**
 * The cost of a Latin-1 text (a URL, a header name or value): 24 and two bytes a character, as
 * {@link charBytes} would say, without its test. HTTP gives header values and the request line as
 * bytes, which Node's parser and the Fetch API's ByteString hand over as Latin-1 strings, which V8
 * keeps at one byte a character: the journal counts every request's headers this way (a regular
 * expression per header was a fifth of what the journal cost a request; measured in a CPU profile).
 */
export const latin1TextBytes = (text: string): number => 24 + 2 * text.length

/** A text's cost: header and its characters ({@link charBytes}). */
export const textBytes = (text: string): number => 24 + charBytes(text)

/** A pet: the frozen object, its id, its slots in the list and the status index, and its name. */
export const petBytes = (pet: { name: string }): number => 136 + charBytes(pet.name)

/** Pets as a session keeps them. */
export const petsBytes = (pets: readonly { name: string }[]): number => {
  let bytes = 0
  for (const pet of pets) bytes += petBytes(pet)
  return bytes
}

/** A fault rule: its fields are numbers and one of the contract's operation names. */
export const ruleBytes = 320

/**
 * What fault rules cost: {@link ruleBytes} each; one that holds a timeline (issue 43: up to 32
 * phases, each a rule with its own answer) its timeline's text besides.
 */
export const rulesCost = (rules: readonly object[]): number => {
  let bytes = 0
  for (const rule of rules)
    bytes += 'timeline' in rule ? ruleBytes + textBytes(JSON.stringify(rule.timeline)) : ruleBytes
  return bytes
}

/** A session's own parts (pet store, rules, generator, clock, journal ring, maps), before anything is put in them. */
export const sessionBytes = 16 * 1024

/** A rate-limit window of an API key, the key included (bounded: rate-limit.ts). */
export const rateLimitKeyBytes = (key: string): number => 160 + textBytes(key)

/** A client in the deprecation report: its counters, its redacted Authorization and User-Agent (256 characters at most). */
export const deprecationClientBytes = 1024

/** An operation's first overflow counter in the deprecation report. */
export const deprecationOverflowBytes = 128
