import { expect } from 'vitest'

/**
 * Runs `send`, which the test asked to be delayed or to wait, and checks that it took at least
 * `minimumMs`; resolves with its result. A lower bound on a delay the test itself asked for: a busy
 * machine only makes an answer later, so it holds however loaded the machine is, and nothing here
 * bounds the time from above (issue 27 §3: test/architecture/stopwatch-assertions.test.ts lets a lower
 * bound pass and flags an upper one). Callers leave a few ms for timers, which may fire a little early.
 */
export const delayedAtLeast = async <T>(minimumMs: number, send: () => Promise<T>): Promise<T> => {
  const start = performance.now()
  const result = await send()
  expect(performance.now() - start).toBeGreaterThanOrEqual(minimumMs)
  return result
}
