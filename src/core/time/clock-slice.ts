import type { MaybePromise } from '../async/maybe-promise.js'
import type { ClockSetting, ClockView } from './clock.js'

/** A session's mock clock, as the state port holds it (see sessions/port.ts for what every call may do). */
export interface ClockSlice {
  /** The session's mock time, epoch ms. */
  now(): MaybePromise<number>
  clockView(): MaybePromise<ClockView>
  setClock(setting: ClockSetting): MaybePromise<ClockView>
}
