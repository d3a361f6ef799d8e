import { isJsonObject } from '../../http/json.js'
import { instantExpectation, parseInstant } from '../../time/instant.js'
import { clockRangeExpectation, inClockRange } from '../../time/clock-range.js'
import { checkRuleName, type FaultRuleInput, maxDelayMs } from '../rule-check.js'
import {
  type PhaseRule,
  type Ramp,
  type StoredPhase,
  type StoredTimeline,
  timelineOperation,
} from '../timeline-phase.js'

/**
 * A timeline as a client PUTs it, and its check (issue 43): every problem is a sentence naming the
 * phase and the field. A phase's rule is checked by the fault-rule check itself, its ramps first.
 */

/** Most phases a timeline holds: every request of the session reads its timelines. */
export const maxTimelinePhases = 32
/** Longest phase, and longest loop: 400 days, so that instants stay within the mock clock's range. */
export const maxPhaseMs = 400 * 24 * 3600 * 1000

/** A duration as a timeline writes it: `500ms`, `30s`, `2m`, `1h`, `7d`, or a number of milliseconds. */
const DURATION = /^(-?\d+)(ms|s|m|h|d)$/
const unitMs: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }
export const durationExpectation = 'a duration such as "500ms", "30s", "2m", "1h", "7d" or a number of milliseconds'

/** A duration's milliseconds, or undefined when it is none (its sign is kept: the caller refuses <= 0). */
export const parseDuration = (value: unknown): number | undefined => {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined
  if (typeof value !== 'string') return undefined
  const match = DURATION.exec(value)
  return match ? Number(match[1]) * unitMs[match[2]!]! : undefined
}

const phaseFields = new Set(['for', 'rule'])
const timelineFields = new Set(['start', 'phases', 'repeat', 'seed'])

/** A timeline's parts before it is stored: the start still as written. */
export interface TimelineInput {
  start?: unknown
  phases?: unknown
  repeat?: unknown
  seed?: unknown
}

const checkRamp = (
  value: unknown,
  field: string,
  low: number,
  high: number,
  integer: boolean,
  forever: boolean,
): string | undefined => {
  if (!isJsonObject(value)) return undefined
  const extra = Object.keys(value).find((key) => key !== 'from' && key !== 'to')
  if (extra !== undefined) return `${field}.${extra} is not a known field (a ramp is { "from": …, "to": … })`
  for (const end of ['from', 'to'] as const) {
    const v = (value as Record<string, unknown>)[end]
    const kind = integer ? 'an integer' : 'a number'
    if (typeof v !== 'number' || !Number.isFinite(v) || (integer && !Number.isInteger(v)) || v < low || v > high) {
      return `${field}.${end} must be ${kind} from ${low} to ${high}`
    }
  }
  if (forever) return `${field} ramps across its phase, so the phase needs a finite for`
  return undefined
}

/** A phase's rule: its ramps, then the fault-rule check on the rule as it stands at the phase's end. */
const checkPhaseRule = (
  rule: unknown,
  where: string,
  forever: boolean,
  validateRule: (input: unknown) => FaultRuleInput | string,
): PhaseRule | string => {
  if (!isJsonObject(rule)) return `${where}.rule must be a fault rule (a JSON object)`
  const r = rule as Record<string, unknown>
  const probability = checkRamp(r['probability'], `${where}.rule.probability`, 0, 1, false, forever)
  if (probability) return probability
  const delay = checkRamp(r['delayMs'], `${where}.rule.delayMs`, 0, maxDelayMs, true, forever)
  if (delay) return delay
  const end = (value: unknown) => (isJsonObject(value) ? (value as unknown as Ramp).to : value)
  const plain = { ...r }
  if (r['probability'] !== undefined) plain['probability'] = end(r['probability'])
  if (r['delayMs'] !== undefined) plain['delayMs'] = end(r['delayMs'])
  const checked = validateRule(plain)
  if (typeof checked === 'string') return `${where}.rule: ${checked}`
  const phaseRule: PhaseRule = { ...checked }
  if (isJsonObject(r['probability'])) phaseRule.probability = r['probability'] as unknown as Ramp
  if (isJsonObject(r['delayMs'])) phaseRule.delayMs = r['delayMs'] as unknown as Ramp
  return phaseRule
}

const checkPhase = (
  phase: unknown,
  i: number,
  last: boolean,
  validateRule: (input: unknown) => FaultRuleInput | string,
): StoredPhase | string => {
  const where = `phases[${i}]`
  if (!isJsonObject(phase)) return `${where} must be an object with for (and a rule, unless the phase is quiet)`
  const extra = Object.keys(phase).find((key) => !phaseFields.has(key))
  if (extra !== undefined) return `${where}.${extra} is not a known field (a phase has for and rule)`
  const given = (phase as Record<string, unknown>)['for']
  if (given === undefined) return `${where}.for is required: ${durationExpectation}, or "forever"`
  let ms: number | null
  if (given === 'forever') {
    if (!last) return `${where}.for: only the last phase may last forever`
    ms = null
  } else {
    const parsed = parseDuration(given)
    if (parsed === undefined)
      return `${where}.for must be ${durationExpectation}, or "forever" (got ${JSON.stringify(given)})`
    if (parsed <= 0) return `${where}.for must be more than 0 (got ${JSON.stringify(given)})`
    if (parsed > maxPhaseMs) return `${where}.for must be at most 400 days (got ${JSON.stringify(given)})`
    ms = parsed
  }
  const stored: StoredPhase = { for: given as string | number, ms }
  const rule = (phase as Record<string, unknown>)['rule']
  if (rule === undefined) return stored
  const checked = checkPhaseRule(rule, where, ms === null, validateRule)
  if (typeof checked === 'string') return checked
  return { ...stored, rule: checked }
}

/**
 * Checks a timeline's parts (not a preset: presets.ts makes these): the timeline to store under
 * `name`, or a sentence naming the field. `now`: the session's mock clock, for `"start": "now"`
 * (the default).
 */
export const checkTimeline = (
  input: TimelineInput,
  name: string,
  now: number,
  validateRule: (input: unknown) => FaultRuleInput | string,
  extraFields: readonly string[] = [],
): StoredTimeline | string => {
  const extra = Object.keys(input).find((key) => !timelineFields.has(key) && !extraFields.includes(key))
  if (extra !== undefined)
    return `${extra} is not a known field (a timeline has start, phases, repeat, seed, or a preset)`
  let start = now
  if (input.start !== undefined && input.start !== 'now') {
    const at = typeof input.start === 'string' ? parseInstant(input.start) : undefined
    if (at === undefined) return `start must be "now" or ${instantExpectation} (got ${JSON.stringify(input.start)})`
    start = at
  }
  const phases = input.phases
  if (!Array.isArray(phases) || phases.length === 0) {
    return `phases must be an array of 1 to ${maxTimelinePhases} phases`
  }
  if (phases.length > maxTimelinePhases) {
    return `phases holds ${phases.length} phases, more than a timeline may (${maxTimelinePhases})`
  }
  const stored: StoredPhase[] = []
  for (const [i, phase] of phases.entries()) {
    const checked = checkPhase(phase, i, i === phases.length - 1, validateRule)
    if (typeof checked === 'string') return checked
    stored.push(checked)
  }
  if (input.repeat !== undefined && typeof input.repeat !== 'boolean') return 'repeat must be true or false'
  const repeat = input.repeat === true
  const forever = stored.findIndex((phase) => phase.ms === null)
  if (repeat && forever !== -1) {
    return `repeat: a timeline that repeats needs every phase to end (phases[${forever}].for is "forever")`
  }
  const loop = stored.reduce((sum, phase) => sum + (phase.ms ?? 0), 0)
  if (loop > maxPhaseMs) return `phases last ${loop} ms in all, more than 400 days`
  if (input.seed !== undefined && !Number.isSafeInteger(input.seed)) return 'seed must be an integer'
  const seed = (input.seed as number | undefined) ?? 0
  return { name, start, phases: stored, repeat, seed }
}

/**
 * Checks the rule that holds a timeline, as a snapshot carries it (`timeline:NAME`, the stored
 * timeline): the rule's fields, or a sentence naming the field (after `faults.N.`). The timeline is
 * checked as a PUT of its parts would be, its start as stored.
 */
export const checkHeldTimeline = (
  ruleName: string | undefined,
  fields: Record<string, unknown>,
  validateRule: (input: unknown) => FaultRuleInput | string,
): FaultRuleInput | string => {
  const name = ruleName?.startsWith('timeline:') ? ruleName.slice('timeline:'.length) : undefined
  if (name === undefined || checkRuleName(name) !== undefined) {
    return `name must be timeline: and a timeline's name for a rule of operation ${timelineOperation}`
  }
  const { operation, timeline, ...extra } = fields
  const field = Object.keys(extra)[0]
  if (field !== undefined) return `${field} is not a field of the rule that holds a timeline`
  if (!isJsonObject(timeline)) return 'timeline must be the timeline the rule holds (an object)'
  const { name: held, start, phases, repeat, seed, preset } = timeline as Record<string, unknown>
  if (held !== name) return `timeline.name must be ${JSON.stringify(name)}, as the rule's name says`
  if (!Number.isSafeInteger(start) || !inClockRange(start as number))
    return `timeline.start must be ${clockRangeExpectation} in epoch ms`
  const parts = Array.isArray(phases)
    ? phases.map((p) => (isJsonObject(p) ? { for: p['for'], ...(p['rule'] !== undefined && { rule: p['rule'] }) } : p))
    : phases
  const checked = checkTimeline(
    { start: new Date(start as number).toISOString(), phases: parts, repeat, seed },
    name,
    0,
    validateRule,
  )
  if (typeof checked === 'string') return `timeline.${checked}`
  if (preset !== undefined && !isJsonObject(preset)) return 'timeline.preset must be an object'
  return {
    operation: timelineOperation,
    timeline: { ...checked, ...(preset !== undefined && { preset }) },
  } as FaultRuleInput
}
