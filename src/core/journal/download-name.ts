/** `yyyymmddThhmmssZ` of an instant (real time), for download names. */
const stamp = (date: Date): string =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')

/** `Content-Disposition` of a download named after the session and the time: `petstore-mock-<session>-<stamp><suffix>`. */
export const attachment = (session: string, suffix: string, now: Date = new Date()): string =>
  `attachment; filename="petstore-mock-${session}-${stamp(now)}${suffix}"`
