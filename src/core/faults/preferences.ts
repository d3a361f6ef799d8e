/**
 * The preferences of `Prefer` header values (RFC 7240): lower-cased names,
 * unquoted values; the first instance of a name wins, parameters after `;`
 * are dropped.
 */
export const parsePreferences = (header: string | undefined): Map<string, string> => {
  const preferences = new Map<string, string>()
  if (header === undefined) return preferences
  for (const item of header.split(',')) {
    const [pair = ''] = item.split(';', 1)
    const eq = pair.indexOf('=')
    const name = (eq === -1 ? pair : pair.slice(0, eq)).trim().toLowerCase()
    const value =
      eq === -1
        ? ''
        : pair
            .slice(eq + 1)
            .trim()
            .replace(/^"(.*)"$/, '$1')
    if (name && !preferences.has(name)) preferences.set(name, value)
  }
  return preferences
}
