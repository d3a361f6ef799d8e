// RFC 3339's profile of ISO 8601: a full date and time with a zone, nothing looser.
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/

/** How an instant must be written, for messages. */
export const instantExpectation = 'an ISO 8601 instant with a time zone, e.g. 2030-12-05T00:00:00Z'

/**
 * Parses an ISO 8601 instant with a time zone (`2030-12-05T00:00:00Z`,
 * `2030-12-05T01:00:00.5+01:00`) into epoch milliseconds; undefined for
 * anything else, including impossible dates (`2030-02-30`), leap seconds,
 * dates without a time or a zone, and numbers.
 */
export const parseInstant = (text: string): number | undefined => {
  const match = INSTANT.exec(text)
  if (!match) return undefined
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const fraction = Number(`0.${match[7] ?? '0'}`)
  const [sign, offsetHours, offsetMinutes] = [match[8], Number(match[9] ?? 0), Number(match[10] ?? 0)]
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined
  const date = new Date(0)
  // setUTCFullYear, unlike Date.UTC, keeps years 0 to 99 as written.
  date.setUTCFullYear(year, month - 1, day)
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return undefined
  }
  const offsetMs = (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000
  return date.getTime() + ((hour * 60 + minute) * 60 + second) * 1000 + Math.floor(fraction * 1000) - offsetMs
}

/** `2030-12-05` for a midnight (UTC), else the full ISO instant: how removal dates read in messages. */
export const formatDay = (date: Date): string => {
  const iso = date.toISOString()
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso
}
