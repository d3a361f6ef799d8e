import type { Timeline } from '../types.js'

/** One phase on a timeline's axis: where it starts and how wide it is (shares of the axis, 0 to 1). */
export interface AxisPhase {
  index: number
  left: number
  width: number
  /** `for` as written, and what the phase does. */
  label: string
  quiet: boolean
  current: boolean
}

/** A timeline drawn on a time axis: its phases (one loop) and the clock's now (a share, or undefined off the axis). */
export interface Axis {
  phases: AxisPhase[]
  now: number | undefined
}

/** What a phase's rule does, in a few words (`503`, `listPets +500 ms`, `getPet 410`, `quiet`). */
export const phaseText = (rule: Timeline['phases'][number]['rule']): string => {
  if (rule === undefined) return 'quiet'
  const parts: string[] = []
  if (rule.operation) parts.push(rule.operation)
  if (rule.status !== undefined) parts.push(String(rule.status))
  if (rule.fault) parts.push(rule.fault.replace(/_/g, ' '))
  const ramp = (v: number | { from: number; to: number }) => (typeof v === 'number' ? String(v) : `${v.from}→${v.to}`)
  if (rule.delayMs !== undefined) parts.push(`+${ramp(rule.delayMs)} ms`)
  if (rule.probability !== undefined) parts.push(`p ${ramp(rule.probability)}`)
  return parts.join(' ') || 'rule'
}

/**
 * A timeline's phases laid along an axis of one loop: each as wide as it lasts (a phase that lasts
 * forever a quarter of the finite ones, at least; a phase never thinner than 1 % so that a short
 * window shows), and the clock's now on it.
 */
export const timelineAxis = (timeline: Timeline, now: string): Axis => {
  const lengths = timeline.phases.map((p) => p.ms)
  const finite = lengths.reduce<number>((sum, ms) => sum + (ms ?? 0), 0)
  const forever = Math.max(finite / 4, 1)
  const raw = lengths.map((ms) => ms ?? forever)
  const total = raw.reduce((sum, ms) => sum + ms, 0)
  const widths = raw.map((ms) => Math.max(ms / total, 0.01))
  const scale = widths.reduce((sum, w) => sum + w, 0)
  let left = 0
  const phases = timeline.phases.map((phase, index) => {
    const width = widths[index]! / scale
    const drawn = {
      index,
      left,
      width,
      label: `${phase.for === 'forever' ? '∞' : phase.for} · ${phaseText(phase.rule)}`,
      quiet: phase.rule === undefined,
      current: timeline.current?.phase === index,
    }
    left += width
    return drawn
  })
  const at = timeline.current
  let position: number | undefined
  if (at) {
    const current = phases[at.phase]!
    const since = Date.parse(now) - Date.parse(at.startedAt)
    const length = raw[at.phase]!
    position = current.left + current.width * Math.min(since / length, 1)
  } else if (timeline.state === 'pending') position = 0
  else position = 1
  return { phases, now: position }
}
