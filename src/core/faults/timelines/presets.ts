import type { Spec } from '../../spec/spec.js'
import type { TimelineInput } from './timeline-check.js'
import { durationExpectation, maxTimelinePhases, parseDuration } from './timeline-check.js'

/**
 * Presets: timelines made from a few documented parameters (docs/reference/admin-api.md, "Timelines").
 * A preset's answer is a timeline's parts, checked as any timeline is; a problem with a parameter is a
 * sentence naming it.
 */

type Params = Record<string, unknown>
type Made = TimelineInput | string

interface Preset {
  /** Its parameters and their defaults, as the docs list them (`start` and `seed` are every preset's). */
  params: Record<string, unknown>
  make(params: Params, spec: Spec): Made
}

const duration = (params: Params, name: string): string | number | undefined => {
  const value = params[name]
  const ms = parseDuration(value)
  return ms !== undefined && ms > 0 ? (value as string | number) : undefined
}

const durationProblem = (params: Params, names: readonly string[]): string | undefined => {
  for (const name of names) {
    if (duration(params, name) === undefined) {
      return `${name} must be ${durationExpectation}, more than 0 (got ${JSON.stringify(params[name])})`
    }
  }
  return undefined
}

/** Milliseconds as a timeline writes them: in the largest unit that holds them exactly (`7d`, `2h`, `90s`). */
const durationText = (ms: number): string => {
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`
  }
  return `${ms}ms`
}

const scoped = (params: Params) => (params['operation'] === undefined ? {} : { operation: params['operation'] })

const presets: Record<string, Preset> = {
  // Down (the status, 503 by default), then recovering (429 with Retry-After), then up for good.
  outage: {
    params: { down: '30s', recovering: '30s', status: 503, operation: undefined },
    make: (p) =>
      durationProblem(p, ['down', 'recovering']) ?? {
        phases: [
          { for: p['down'], rule: { ...scoped(p), status: p['status'] } },
          { for: p['recovering'], rule: { ...scoped(p), status: 429 } },
          { for: 'forever' },
        ],
      },
  },
  // Up, then down, again and again.
  flapping: {
    params: { up: '20s', down: '10s', status: 503, operation: undefined },
    make: (p) =>
      durationProblem(p, ['up', 'down']) ?? {
        phases: [{ for: p['up'] }, { for: p['down'], rule: { ...scoped(p), status: p['status'] } }],
        repeat: true,
      },
  },
  // Latency ramping up from fromMs to toMs, then requests held until the client (or holdMs) gives up, then up.
  'slow-degradation': {
    params: { ramp: '60s', fromMs: 50, toMs: 2000, timeouts: '30s', holdMs: 30_000, operation: undefined },
    make: (p) =>
      durationProblem(p, ['ramp', 'timeouts']) ?? {
        phases: [
          { for: p['ramp'], rule: { ...scoped(p), delayMs: { from: p['fromMs'], to: p['toMs'] } } },
          { for: p['timeouts'], rule: { ...scoped(p), fault: 'hang', delayMs: p['holdMs'] } },
          { for: 'forever' },
        ],
      },
  },
  // Windows before getPet's Sunset (the contract's) in which getPet answers as it will after it
  // (410 Gone, its lifecycle headers); each window twice the one before, the last ending at the Sunset.
  'getpet-brownout': {
    params: { windows: 3, first: '1h', gap: '7d' },
    make: (p, spec) => {
      const problem = durationProblem(p, ['first', 'gap'])
      if (problem) return problem
      const count = p['windows']
      const most = Math.floor((maxTimelinePhases - 1) / 2)
      if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > most) {
        return `windows must be an integer from 1 to ${most} (got ${JSON.stringify(count)})`
      }
      const sunset = spec.operations.find((op) => op.id === 'getPet')?.sunset
      if (sunset === undefined)
        return 'preset getpet-brownout needs getPet to have a Sunset in the contract; it has none'
      const first = parseDuration(p['first'])!
      const gap = parseDuration(p['gap'])!
      const lengths = Array.from({ length: count as number }, (_, k) => first * 2 ** k)
      const span = lengths.reduce((sum, ms) => sum + ms, 0) + gap * (lengths.length - 1)
      const phases: unknown[] = []
      for (const [k, ms] of lengths.entries()) {
        if (k > 0) phases.push({ for: durationText(gap) })
        phases.push({ for: durationText(ms), rule: { operation: 'getPet', status: 410 } })
      }
      phases.push({ for: 'forever' })
      return { start: new Date(sunset.getTime() - span).toISOString(), phases }
    },
  },
}

/** The presets' names, in the order the docs give them. */
export const presetNames = Object.keys(presets)

/**
 * A preset's timeline parts from `{ "preset": name, …parameters }` (defaults filled in), and the
 * parameters as used (what GET shows); or a sentence naming the field.
 */
export const expandPreset = (input: Params, spec: Spec): { parts: TimelineInput; params: Params } | string => {
  const { preset: name, start, seed, ...given } = input
  const preset = typeof name === 'string' ? presets[name] : undefined
  if (preset === undefined) {
    return `preset must be one of ${presetNames.join(', ')} (got ${JSON.stringify(name)})`
  }
  const known = Object.keys(preset.params)
  const extra = Object.keys(given).find((key) => !known.includes(key))
  if (extra !== undefined) {
    return `${extra} is not a parameter of preset ${name} (its parameters: ${[...known, 'start', 'seed'].join(', ')})`
  }
  const params: Params = {}
  for (const [key, value] of Object.entries({ ...preset.params, ...given }))
    if (value !== undefined) params[key] = value
  const parts = preset.make(params, spec)
  if (typeof parts === 'string') return parts
  if (start !== undefined && parts.start !== undefined) {
    return `start is not a parameter of preset ${name}: its dates come from the contract`
  }
  return {
    parts: {
      ...parts,
      ...(start !== undefined && parts.start === undefined && { start }),
      ...(seed !== undefined && { seed }),
    },
    params: { preset: name, ...params },
  }
}
