import { describe, expect, it } from 'vitest'
import { phaseText, timelineAxis } from '../../../src/panel/model/timeline-axis.js'
import type { Timeline } from '../../../src/panel/types.js'

const incident: Timeline = {
  name: 'staging-incident',
  start: '2030-01-01T00:00:00.000Z',
  repeat: false,
  seed: 0,
  phases: [
    { for: '30s', ms: 30_000, rule: { status: 503 } },
    { for: '30s', ms: 30_000, rule: { status: 429 } },
    { for: '60s', ms: 60_000, rule: { operation: 'listPets', delayMs: 500 } },
    { for: 'forever', ms: null },
  ],
  state: 'running',
  current: { phase: 1, startedAt: '2030-01-01T00:00:30.000Z', nextAt: '2030-01-01T00:01:00.000Z', cycle: 0 },
  startsAt: null,
}

describe('a timeline on the panel’s axis', () => {
  it('lays phases as wide as they last (forever: a quarter of the rest) and puts the clock’s now in the phase in force', () => {
    const axis = timelineAxis(incident, '2030-01-01T00:00:45.000Z')
    expect(axis.phases.map((p) => [p.label, +p.width.toFixed(3), p.current])).toEqual([
      ['30s · 503', 0.2, false],
      ['30s · 429', 0.2, true],
      ['60s · listPets +500 ms', 0.4, false],
      ['∞ · quiet', 0.2, false],
    ])
    expect(axis.now).toBeCloseTo(0.3)
  })

  it('puts now at the start of a pending timeline and at the end of an ended one; names ramps', () => {
    expect(timelineAxis({ ...incident, state: 'pending', current: null }, '2029-01-01T00:00:00Z').now).toBe(0)
    expect(timelineAxis({ ...incident, state: 'ended', current: null }, '2031-01-01T00:00:00Z').now).toBe(1)
    expect(phaseText({ operation: 'getPet', status: 503, probability: { from: 0, to: 1 } })).toBe('getPet 503 p 0→1')
    expect(phaseText({ delayMs: { from: 50, to: 2000 } })).toBe('+50→2000 ms')
    expect(phaseText(undefined)).toBe('quiet')
  })
})
