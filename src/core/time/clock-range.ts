const utc = (year: number, month: number, day: number, ms: number): number =>
  // setUTCFullYear, unlike Date.UTC, keeps years 0 to 99 as written.
  new Date(0).setUTCFullYear(year, month - 1, day) + ms

const lastMsOfDay = 24 * 3600 * 1000 - 1

/**
 * The earliest and latest instants the mock clock shows, and a snapshot may
 * hold: those ISO 8601 writes with a four-digit year, which the API reads
 * back (`toISOString` writes `+010000-…` beyond).
 */
export const clockRange = { min: utc(0, 1, 1, 0), max: utc(9999, 12, 31, lastMsOfDay) } as const

/**
 * The latest instant the clock can be set to (PUT /__admin/clock, the
 * `clock` option, `--clock`): a thousand years before {@link clockRange}'s
 * end, so that an advancing clock set there stays readable for as long.
 */
export const latestClockSetting = utc(8999, 12, 31, lastMsOfDay)

const iso = (ms: number): string => new Date(ms).toISOString()

/** The range a clock may be set to, for messages. */
export const clockSettingExpectation = `between ${iso(clockRange.min)} and ${iso(latestClockSetting)}`

/** The range a snapshot's clock may hold, for messages. */
export const clockRangeExpectation = `between ${iso(clockRange.min)} and ${iso(clockRange.max)}`

/** Whether the clock may be set to this instant (epoch ms). */
export const isClockSetting = (ms: number): boolean => ms >= clockRange.min && ms <= latestClockSetting

/** Whether the clock may show this instant (epoch ms), as a snapshot holds it. */
export const inClockRange = (ms: number): boolean => ms >= clockRange.min && ms <= clockRange.max

/**
 * An instant brought into {@link clockRange}: an advancing clock that gets to
 * an end (only if the host's own clock jumps by centuries) stops there.
 */
export const clampToClockRange = (ms: number): number => Math.min(Math.max(ms, clockRange.min), clockRange.max)
