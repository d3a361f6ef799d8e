import { afterEach, beforeEach, vi } from 'vitest'

/**
 * For every test of the calling file, fakes `Date` only (timers stay real)
 * and starts it at `ms`; move it with `vi.setSystemTime`.
 */
export const fakeDateAt = (ms: number): void => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(ms)
  })
  afterEach(() => vi.useRealTimers())
}
