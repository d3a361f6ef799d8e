import { describe, expect, it, vi } from 'vitest'
import { clockAt, MockClock, realClock, startClock } from '../../../src/core/time/clock.js'
import { fakeDateAt } from '../../helpers/fake-date.js'

const real = Date.parse('2026-01-01T00:00:00Z')
const mock = Date.parse('2030-12-04T23:59:00Z')

describe('MockClock', () => {
  fakeDateAt(real)

  it.each([
    ['real time', realClock, [real, real + 1500], { frozen: false, real: true }],
    ['an advancing instant', clockAt(mock, false, real), [mock, mock + 1500], { frozen: false, real: false }],
    ['a frozen instant', clockAt(mock, true, real), [mock, mock], { frozen: true, real: false }],
  ] as const)('%s: now before and after 1.5 s of real time', (_, setting, [before, after], flags) => {
    const clock = new MockClock(setting)
    expect(clock.now()).toBe(before)
    expect(clock.view()).toEqual({ now: new Date(before).toISOString(), ...flags })
    vi.setSystemTime(real + 1500)
    expect(clock.now()).toBe(after)
  })

  it('is set and set back to real time', () => {
    const clock = new MockClock()
    clock.set(clockAt(mock, true))
    expect(clock.now()).toBe(mock)
    clock.set(realClock)
    expect(clock.now()).toBe(real)
  })
})

describe('startClock', () => {
  it.each([
    ['nothing', undefined, realClock],
    ['a Date', new Date(mock), { mode: 'offset', offsetMs: mock - real }],
    ['a string', '2030-12-04T23:59:00Z', { mode: 'offset', offsetMs: mock - real }],
    ['a frozen instant', { now: '2030-12-04T23:59:00Z', frozen: true }, { mode: 'frozen', at: mock }],
  ] as const)('from %s', (_, option, setting) => {
    expect(startClock(option, real)).toEqual(setting)
  })

  it.each([['2030-13-01T00:00:00Z'], [new Date('nope')], [{ now: 'yesterday' }]])(
    'refuses %j with a TypeError',
    (option) => {
      expect(() => startClock(option, real)).toThrow(/clock must be an ISO 8601 instant/)
    },
  )
})
