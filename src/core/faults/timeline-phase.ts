// Types only: this module and timeline-take.ts load on first use, in a chunk of their own, so they
// import nothing that msw's bundle loads at start (or esbuild would split that into more chunks).
import type { FaultRule, FaultRuleInput } from './rule-check.js'

/**
 * A fault timeline on the session's mock clock (issue 43), as stored and as the request path reads
 * it: the phase in force at an instant, its ramps, and its draws. Kept small: it is on the /v1 path
 * (the msw bundle's main chunk); its check, presets and routes load with the admin routes
 * (faults/timelines/).
 */

/** A value that moves linearly across its phase, from its start to its end. */
export interface Ramp {
  from: number
  to: number
}

/** A phase's rule: a fault rule whose probability and delayMs may be ramps. */
export type PhaseRule = Omit<FaultRuleInput, 'probability' | 'delayMs'> & {
  probability?: number | Ramp
  delayMs?: number | Ramp
}

/** One phase: how long it lasts (`for` as written; `ms`, null for "forever") and its rule (none: quiet). */
export interface StoredPhase {
  for: string | number
  ms: number | null
  rule?: PhaseRule
}

/** A timeline as stored: its start on the mock clock (epoch ms), phases, loop, seed, and the preset it came from. */
export interface StoredTimeline {
  name: string
  start: number
  phases: StoredPhase[]
  repeat: boolean
  seed: number
  preset?: Record<string, unknown>
}

/**
 * A timeline is kept as an inert fault rule of the session (so both stores, the memory budget, the
 * tenant's quota, reset and snapshots hold it as they hold rules): named `timeline:<name>` (no rule
 * route can name it: `:` is no rule name's character), on an operation no request has (so no store
 * matches it; the Redis store's scripts/faults.lua and FaultRules.timelines() know it by its `timeline`).
 */
export const timelineOperation = '~timeline'
export const timelineRuleName = (name: string): string => `timeline:${name}`

/** The rule that holds a timeline (the stores keep and copy it as any rule's JSON). */
export type TimelineRule = FaultRule & { timeline: StoredTimeline }

/** The rule a timeline is stored as. */
export const timelineRuleInput = (timeline: StoredTimeline): FaultRuleInput =>
  ({ operation: timelineOperation, timeline }) as FaultRuleInput

/** The timeline a stored rule holds, if it is one. */
export const timelineOf = (rule: FaultRule): StoredTimeline | undefined =>
  rule.operation === timelineOperation ? (rule as TimelineRule).timeline : undefined

/** Where a timeline stands at an instant: the phase in force, when it began and ends (null: never), and which loop. */
export interface PhaseAt {
  index: number
  start: number
  end: number | null
  cycle: number
}

/** The phase in force at `now`; undefined before the start and after the last phase of a timeline that does not loop. */
export const phaseAt = (timeline: StoredTimeline, now: number): PhaseAt | undefined => {
  if (now < timeline.start) return undefined
  const { phases } = timeline
  let total = 0
  for (const phase of phases) total += phase.ms ?? Infinity
  let cycle = 0
  let from = timeline.start
  if (timeline.repeat && total !== Infinity && total > 0) {
    cycle = Math.floor((now - timeline.start) / total)
    from += cycle * total
  }
  for (let index = 0; index < phases.length; index++) {
    const ms = phases[index]!.ms
    const end = ms === null ? null : from + ms
    if (end === null || now < end) return { index, start: from, end, cycle }
    from = end
  }
  return undefined
}

/** A ramp's value at `now` within its phase (a plain number as it is). */
export const valueAt = (value: number | Ramp | undefined, at: PhaseAt, now: number): number | undefined => {
  if (value === undefined || typeof value === 'number') return value
  const share = at.end === null ? 0 : (now - at.start) / (at.end - at.start)
  return value.from + (value.to - value.from) * share
}

/**
 * A draw in [0, 1) that depends only on the timeline's seed and name, the phase (its loop, its index)
 * and the request's count within it: the same on every replica and in every replay (a 32-bit mix,
 * murmur3's finaliser over FNV-1a).
 */
export const phaseDraw = (seed: number, key: string, count: number): number => {
  let h = (2166136261 ^ seed) >>> 0
  const text = `${key}#${count}`
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619)
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return (h >>> 0) / 4294967296
}

/** The key of a phase's count: one per stored timeline (a PUT again starts again), loop and phase. */
export const phaseKey = (rule: FaultRule, timeline: StoredTimeline, at: PhaseAt): string =>
  `${rule.id}.${timeline.start}.${at.cycle}.${at.index}`
