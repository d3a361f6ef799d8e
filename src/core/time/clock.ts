import { instantExpectation, parseInstant } from './instant.js'

/** Where a session's time comes from. Plain data: sessions share the start-up one. */
export type ClockSetting =
  | { readonly mode: 'real' }
  /** Real time shifted by `offsetMs`: it advances. */
  | { readonly mode: 'offset'; readonly offsetMs: number }
  /** Always `at`. */
  | { readonly mode: 'frozen'; readonly at: number }

/** The clock as the admin API shows it. */
export interface ClockView {
  now: string
  frozen: boolean
  /** True when the clock is the real time, unshifted. */
  real: boolean
}

/** How a clock is given to createApp: an instant (then advancing), or an instant and whether it stands still. */
export type ClockOption = Date | string | { now: Date | string; frozen?: boolean }

/** Real time. */
export const realClock: ClockSetting = { mode: 'real' }

/** A setting that reads `at` now and then advances in real time, or stays at `at` when frozen. */
export const clockAt = (at: number, frozen = false, realNow = Date.now()): ClockSetting =>
  frozen ? { mode: 'frozen', at } : { mode: 'offset', offsetMs: at - realNow }

const instantOf = (value: Date | string): number => {
  const ms = typeof value === 'string' ? parseInstant(value) : value.getTime()
  if (ms === undefined || Number.isNaN(ms)) {
    throw new TypeError(`clock must be ${instantExpectation} (got ${JSON.stringify(value)})`)
  }
  return ms
}

/** The start-up setting for a createApp `clock` option; throws TypeError on an invalid instant. */
export const startClock = (option: ClockOption | undefined, realNow = Date.now()): ClockSetting => {
  if (option === undefined) return realClock
  if (typeof option === 'string' || option instanceof Date) return clockAt(instantOf(option), false, realNow)
  return clockAt(instantOf(option.now), option.frozen === true, realNow)
}

/**
 * A session's mock clock: real time, real time shifted, or frozen. It decides
 * the service's lifecycle (sunsets) and rate-limit windows, nothing else.
 * Real time is `Date.now()`, so it runs on any host.
 */
export class MockClock {
  #setting: ClockSetting

  constructor(setting: ClockSetting = realClock) {
    this.#setting = setting
  }

  /** The mock time, epoch ms. */
  now(): number {
    const setting = this.#setting
    if (setting.mode === 'frozen') return setting.at
    return setting.mode === 'offset' ? Date.now() + setting.offsetMs : Date.now()
  }

  get frozen(): boolean {
    return this.#setting.mode === 'frozen'
  }

  set(setting: ClockSetting): void {
    this.#setting = setting
  }

  view(): ClockView {
    return { now: new Date(this.now()).toISOString(), frozen: this.frozen, real: this.#setting.mode === 'real' }
  }
}
