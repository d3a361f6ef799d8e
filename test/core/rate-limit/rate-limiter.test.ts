import { describe, expect, it } from 'vitest'
import {
  checkRatePolicy,
  formatRate,
  parseRate,
  partitionKey,
  RateLimiter,
} from '../../../src/core/rate-limit/rate-limit.js'

describe('parseRate and formatRate', () => {
  it.each([
    ['100/m', 100, 60, '100/m'],
    ['100/1m', 100, 60, '100/m'],
    ['10/30s', 10, 30, '10/30s'],
    ['1/s', 1, 1, '1/s'],
    ['5000/h', 5000, 3600, '5000/h'],
    ['1000/24h', 1000, 86400, '1000/24h'],
    ['7/90s', 7, 90, '7/90s'],
    ['7/120s', 7, 120, '7/2m'],
    ['1000000/m', 1_000_000, 60, '1000000/m'],
  ])('%s is %i per %i s, written %s', (text, limit, windowSeconds, written) => {
    expect(parseRate(text)).toEqual({ limit, windowSeconds })
    expect(formatRate({ limit, windowSeconds })).toBe(written)
  })

  it.each([
    '',
    '100',
    '100/',
    '/m',
    '0/m',
    '-1/m',
    '01/m',
    '1.5/m',
    '100/0m',
    '100/d',
    '100/min',
    '100 / m',
    '100/M',
    '1000001/m',
    '1/25h',
    '1/86401s',
  ])('%j is refused', (text) => {
    expect(parseRate(text)).toBeUndefined()
  })

  it.each([
    [{ limit: 0, windowSeconds: 60 }, 'rateLimit.limit'],
    [{ limit: 1.5, windowSeconds: 60 }, 'rateLimit.limit'],
    [{ limit: 10, windowSeconds: 0 }, 'rateLimit.windowSeconds'],
    [{ limit: 10, windowSeconds: 86401 }, 'rateLimit.windowSeconds'],
  ])('checkRatePolicy(%j) names %s', (policy, field) => {
    expect(checkRatePolicy(policy)).toMatch(new RegExp(`^${field} must be`))
  })
})

describe('RateLimiter: fixed windows per key on the given clock', () => {
  const t0 = Date.parse('2030-01-01T00:00:00Z')

  it('allows n per window, refuses beyond, frees the window once it is over', () => {
    const limiter = new RateLimiter({ limit: 2, windowSeconds: 60 })
    const at = (seconds: number) => limiter.take('k', t0 + seconds * 1000)
    expect(at(0)).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 60 })
    expect(at(10)).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 50 })
    expect(at(29.5)).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 31 })
    expect(at(59.999)).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 1 })
    expect(at(60)).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 60 })
  })

  it('counts keys apart', () => {
    const limiter = new RateLimiter({ limit: 1, windowSeconds: 60 })
    expect(limiter.take('a', t0).allowed).toBe(true)
    expect(limiter.take('a', t0).allowed).toBe(false)
    expect(limiter.take('b', t0).allowed).toBe(true)
  })

  it('opens a new window when the clock goes back before the window', () => {
    const limiter = new RateLimiter({ limit: 1, windowSeconds: 60 })
    expect(limiter.take('a', t0).allowed).toBe(true)
    expect(limiter.take('a', t0 - 1).allowed).toBe(true)
    expect(limiter.take('a', t0).allowed).toBe(false)
  })

  it('tracks at most maxKeys keys, forgetting the least recently seen', () => {
    const limiter = new RateLimiter({ limit: 1, windowSeconds: 60 }, 2)
    limiter.take('a', t0)
    limiter.take('b', t0)
    limiter.take('a', t0)
    limiter.take('c', t0)
    expect(limiter.size).toBe(2)
    expect(limiter.take('a', t0).allowed).toBe(false)
    expect(limiter.take('b', t0).allowed).toBe(true)
  })

  it('keys long tokens by a prefix and a hash', () => {
    const long = 'x'.repeat(10_000)
    expect(partitionKey('short-token')).toBe('short-token')
    expect(partitionKey(long).length).toBeLessThan(64)
    expect(partitionKey(long)).not.toBe(partitionKey(`${long}y`))
    expect(partitionKey(long)).toBe(partitionKey('x'.repeat(10_000)))
  })
})
