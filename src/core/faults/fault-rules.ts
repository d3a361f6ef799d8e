import type { Random } from './random.js'
import { whenHolds } from './rule-match.js'
import {
  holdsRequest,
  type FaultRuleInput,
  type FaultRule,
  type PutFaultResult,
  type FaultTarget,
  maxFaultRules,
  type FaultsFull,
} from './rule-check.js'

const copy = (rule: FaultRule): FaultRule => ({ ...rule })

/** Whether a rule's conditions (operation, getPet's petId, `when`) hold for a request: all but its draw. */
export const ruleTargets = (
  rule: { operation?: string; petId?: number; when?: FaultRule['when'] },
  target: FaultTarget,
): boolean => {
  if (rule.operation !== undefined && rule.operation !== target.operation) return false
  if (rule.petId !== undefined && (target.operation !== 'getPet' || target.petId !== String(rule.petId))) return false
  return whenHolds(rule, target.facts)
}

/**
 * Fault rules of one session, evaluated in creation order: the first rule
 * that matches a request (operation, petId, then a seeded probability draw)
 * applies and is counted down; at zero it is gone. Knows nothing of HTTP.
 */
export class FaultRules {
  #rules: FaultRule[] = []
  #nextId = 1
  readonly #random: Random

  constructor(random: Random, initial: readonly FaultRuleInput[] = []) {
    this.#random = random
    for (const rule of initial) this.add(rule)
  }

  /** Rules as they stood (ids, remaining counts, order) and the next id, e.g. from a snapshot. */
  static restore(random: Random, rules: readonly FaultRule[], nextId: number): FaultRules {
    const restored = new FaultRules(random)
    restored.#rules = rules.map(copy)
    restored.#nextId = nextId
    return restored
  }

  get size(): number {
    return this.#rules.length
  }

  /** The id the next added rule gets. */
  get nextId(): number {
    return this.#nextId
  }

  /** Adds a rule under the next id; 'full' (nothing added) at {@link maxFaultRules}. */
  add(input: FaultRuleInput): FaultRule | FaultsFull {
    if (this.#rules.length >= maxFaultRules) return 'full'
    const rule: FaultRule = { id: this.#nextId++, ...input }
    if (input.times !== undefined) rule.remaining = input.times
    this.#rules.push(rule)
    return copy(rule)
  }

  /**
   * Sets the rule named `name`: replaces it in place (same id, same place in
   * the order, `remaining` from the new `times`) or adds it under the next id;
   * 'full' (nothing added) at {@link maxFaultRules}.
   */
  put(name: string, input: FaultRuleInput): PutFaultResult | FaultsFull {
    const at = this.#rules.findIndex((rule) => rule.name === name)
    if (at === -1 && this.#rules.length >= maxFaultRules) return 'full'
    const rule: FaultRule = { id: at === -1 ? this.#nextId++ : this.#rules[at]!.id, name, ...input }
    if (input.times !== undefined) rule.remaining = input.times
    if (at === -1) this.#rules.push(rule)
    else this.#rules[at] = rule
    return { rule: copy(rule), created: at === -1 }
  }

  list(): FaultRule[] {
    return this.#rules.map(copy)
  }

  /** The rules that hold timelines (timeline-phase.ts), as stored: a request reads them, never changes them. */
  timelines(): readonly FaultRule[] {
    return this.#rules.filter((rule) => 'timeline' in rule)
  }

  /** Removes the rule named `name`; false when there is none. */
  removeNamed(name: string): boolean {
    const rule = this.#rules.find((r) => r.name === name)
    return rule !== undefined && this.remove(rule.id)
  }

  remove(id: number): boolean {
    const before = this.#rules.length
    this.#rules = this.#rules.filter((rule) => rule.id !== id)
    return this.#rules.length < before
  }

  clear(): void {
    this.#rules = []
  }

  /**
   * The rule that applies to this request, counted down; undefined when none does. When the
   * request may not be held (`mayHold` false: its tenant's quota), a rule that would hold it is
   * answered uncounted, as the request is then refused.
   */
  match(target: FaultTarget, mayHold = true): FaultRule | undefined {
    const rule = this.#rules.find((r) => this.#applies(r, target))
    if (!rule) return undefined
    if (!mayHold && holdsRequest(rule)) return copy(rule)
    if (rule.remaining !== undefined && --rule.remaining === 0) this.remove(rule.id)
    return copy(rule)
  }

  #applies(rule: FaultRule, target: FaultTarget): boolean {
    if (!ruleTargets(rule, target)) return false
    // Drawn only for rules that match otherwise, so a run with the same requests replays exactly.
    return rule.probability === undefined || rule.probability >= 1 || this.#random.next() < rule.probability
  }
}
