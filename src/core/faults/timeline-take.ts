import type { ClockSlice } from '../time/clock-slice.js'
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
 * The session's timelines (`rules`: those that hold them), in creation order, at the session's mock
 * clock: the first whose phase in force has a rule that applies to `target` (its conditions, then its
 * `times` and its probability against the request's count within the phase), as a rule; undefined
 * when none applies. Only a request the phase's rule targets (`targets`: the rules' own test,
 * fault-rules.ts) is counted. It loads on first use and imports nothing msw's bundle loads at start
 * (see timeline-phase.ts).
 */
export const takeTimelinePhase = async (
  session: FaultsSlice & ClockSlice,
  rules: readonly FaultRule[],
  target: FaultTarget,
  targets: (rule: PhaseRule, target: FaultTarget) => boolean,
): Promise<PhaseFault | undefined> => {
  const now = await session.now()
  for (const holder of rules) {
    const timeline = timelineOf(holder)
    const at = timeline && phaseAt(timeline, now)
    const rule = at && timeline.phases[at.index]!.rule
    if (!at || !rule || !targets(rule, target)) continue
    const count = await session.countInPhase(timeline.name, phaseKey(holder, timeline, at))
    const probability = valueAt(rule.probability, at, now)
    if (rule.times !== undefined && count > rule.times) continue
    const draw = () => phaseDraw(timeline.seed, `${timeline.name}.${at.cycle}.${at.index}`, count)
    if (probability !== undefined && probability < 1 && draw() >= probability) continue
    const mark = { name: timeline.name, phase: at.index, phaseStart: new Date(at.start).toISOString() }
    return { ...resolved(rule, probability, valueAt(rule.delayMs, at, now)), timelinePhase: mark }
  }
  return undefined
}
