import { describe, expect, it } from 'vitest'
import { whenReady } from '../../../src/core/async/maybe-promise.js'

describe('whenReady', () => {
  it('uses a value that is not a promise at once: the result is no promise', () => {
    const result = whenReady(2, (n: number, a: number, b: string) => `${n * a}${b}`, 3, '!')
    expect(result).toBe('6!')
  })

  it('uses a promised value once it settles, with the same arguments', async () => {
    const result = whenReady(Promise.resolve(2), (n: number, a: number) => n * a, 3)
    expect(result).toBeInstanceOf(Promise)
    expect(await result).toBe(6)
  })

  it('flattens what `use` promises, and passes a rejection on', async () => {
    expect(await whenReady(1, (n: number) => Promise.resolve(n + 1))).toBe(2)
    await expect(whenReady(Promise.reject(new Error('down')), () => 0)).rejects.toThrow('down')
  })
})
