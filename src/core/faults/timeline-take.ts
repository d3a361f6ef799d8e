import { type MaybePromise, whenReady } from '../async/maybe-promise.js'
import type { ClockSlice } from '../time/clock-slice.js'
import { ruleTargets } from './fault-rules.js'
import type { FaultsSlice } from './faults-slice.js'
import type { FaultRule, FaultTarget } from './rule-check.js'
import { phaseAt, phaseDraw, phaseKey, type PhaseRule, timelineOf, valueAt } from './timeline-phase.js'

/** Which timeline phase shaped an answer: the journal, the HAR and the event stream say so. */
export interface PhaseMark {
  name: string
  phase: number
  phaseStart: string
}

/** A timeline phase's rule as it applies to one request: its ramps read at the request's instant. */
export type PhaseFault = FaultRule & { timelinePhase: PhaseMark }

const resolved = (rule: PhaseRule, probability: number | undefined, delayMs: number | undefined): FaultRule => {
  const { probability: _p, delayMs: _d, ...rest } = rule
  return {
    id: 0,
    ...rest,
    ...(probability !== undefined && { probability }),
    ...(delayMs !== undefined && { delayMs: Math.round(delayMs) }),
  }
}

/**
 * The session's timelines, in creation order, at the session's mock clock: the first whose phase in
 * force has a rule that applies to `target` (its conditions, then its `times` and its probability
 * against the request's count within the phase), as a rule; undefined when none applies. Only a
 * request the phase's rule targets is counted.
 */
export const takeTimelinePhase = (
  session: FaultsSlice & ClockSlice,
  target: FaultTarget,
): MaybePromise<PhaseFault | undefined> =>
  whenReady(session.timelineRules(), (rules) => {
    if (rules.length === 0) return undefined
    return whenReady(session.now(), (now) => {
      const next = (i: number): MaybePromise<PhaseFault | undefined> => {
        for (; i < rules.length; i++) {
          const holder = rules[i]!
          const timeline = timelineOf(holder)
          if (timeline === undefined) continue
          const at = phaseAt(timeline, now)
          const rule = at && timeline.phases[at.index]!.rule
          if (at === undefined || rule === undefined || !ruleTargets(rule, target)) continue
          const key = phaseKey(holder, timeline, at)
          const from = i
          return whenReady(session.countInPhase(timeline.name, key), (count) => {
            const probability = valueAt(rule.probability, at, now)
            const missed =
              (rule.times !== undefined && count > rule.times) ||
              (probability !== undefined &&
                probability < 1 &&
                phaseDraw(timeline.seed, `${timeline.name}.${at.cycle}.${at.index}`, count) >= probability)
            if (missed) return next(from + 1)
            const mark = { name: timeline.name, phase: at.index, phaseStart: new Date(at.start).toISOString() }
            return { ...resolved(rule, probability, valueAt(rule.delayMs, at, now)), timelinePhase: mark }
          })
        }
        return undefined
      }
      return next(0)
    })
  })
