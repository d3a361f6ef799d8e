import type { StorageRefusal } from '../budget/storage-refusal.js'
import type { MaybePromise } from '../async/maybe-promise.js'
import type { FaultRule, FaultRuleInput, FaultsFull, FaultTarget, PutFaultResult } from './rule-check.js'

/** A session's fault rules and latency, as the state port holds them (see sessions/port.ts for what every call may do). */
export interface FaultsSlice {
  /**
   * Atomic: the first rule, in creation order, that applies to `target`
   * (operation, petId, then a probability drawn from the session's seeded
   * generator, drawn only for a rule that matches otherwise), counted down
   * when it has `times` and removed at zero; undefined when none applies.
   * The draw, the count and the removal are one change. With `mayHold`
   * false (the request's tenant holds its quota.held), a rule that would
   * hold the request (hang, drip) is answered uncounted: the request is
   * refused, and a refusal changes nothing but the draw, which every
   * request that meets the rule makes.
   */
  takeFault(target: FaultTarget, mayHold?: boolean): MaybePromise<FaultRule | undefined>
  /**
   * False only when the session surely has no fault rule, answered now: the
   * hot path then skips building the target and {@link takeFault} (most
   * requests meet no rule). A backend that cannot tell without a round trip
   * answers true.
   */
  mayFault(): boolean
  /** Atomic: adds a rule under the next rule id; or refuses (the session's rule cap, the memory budget), changing nothing. */
  addFault(input: FaultRuleInput): MaybePromise<FaultRule | FaultsFull | StorageRefusal>
  /**
   * Atomic: sets the rule named `name`, replacing it in place (its id and
   * place in the order kept, `remaining` restarted from the new `times`) or
   * adding it under the next rule id; two callers racing on one name leave one rule.
   */
  putFault(name: string, input: FaultRuleInput): MaybePromise<PutFaultResult | FaultsFull | StorageRefusal>
  /** Removes the rule named `name`; false when there is none. */
  removeNamedFault(name: string): MaybePromise<boolean>
  /** The rules, in creation order, with their remaining counts. */
  listFaults(): MaybePromise<FaultRule[]>
  /** Removes a rule; false when there is none with `id`. */
  removeFault(id: number): MaybePromise<boolean>
  clearFaults(): MaybePromise<void>

  /** The rules that hold timelines (faults/timeline-phase.ts), in creation order. */
  timelineRules(): MaybePromise<FaultRule[]>
  /**
   * Atomic: counts one request of the timeline's phase `key` and answers its count (1 for the first);
   * a new key starts the count again (one count kept per timeline).
   */
  countInPhase(timeline: string, key: string): MaybePromise<number>

  /** Atomic: the latency of the next answer, a draw from the session's generator; undefined when it has none. */
  drawLatency(): MaybePromise<number | undefined>
}
