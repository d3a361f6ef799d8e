/**
 * Longest pet name accepted, in characters (Unicode code points, as JSON
 * Schema's maxLength counts them). The interface specification sets no limit;
 * without one a name is bounded only by the body limit, and a page of 100
 * pets of 1 MB names is a 100 MB answer that a client which never reads it
 * pins in memory. 1,000 characters keeps a full page under 6 MB (every
 * character escaped) and leaves room for any real name.
 */
export const maxNameChars = 1000

const codePoints = (text: string): number => {
  let count = 0
  for (let i = 0; i < text.length; i++, count++) {
    const code = text.charCodeAt(i)
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) i++
    }
  }
  return count
}

/** What in a schema-valid pet exceeds the mock's own limits, as a sentence without its full stop; undefined when nothing. */
export const petLimitProblem = (pet: { name: string }): string | undefined => {
  // A code point is one or two UTF-16 units: only a name longer than the limit in units needs counting.
  if (pet.name.length <= maxNameChars) return undefined
  const chars = codePoints(pet.name)
  return chars > maxNameChars ? `name must be at most ${maxNameChars} characters (got ${chars})` : undefined
}
