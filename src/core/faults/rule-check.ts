import type { ValidateFunction } from 'ajv'
import { faultRule } from '../../generated/validators.js'
import { describeSchemaError, expectation } from '../spec/messages.js'
import type { Spec } from '../spec/spec.js'
import { bundledSpec } from '../spec/bundled-spec.js'
import { isJsonObject } from '../http/json.js'
import { pathNameRule } from '../http/request/session-name.js'
import { type RequestFacts, type RuleWhen, checkApiKey, checkWhen } from './rule-match.js'
import { type RuleAnswerFields, checkAnswer, contractBreak, hasOwnAnswer, prepareAnswer } from './rule-answer.js'

/**
 * A fault rule as the admin API takes it, and its check: the shape, the name, the operations and
 * the answer a rule may give, in one place for every store and host (the store: fault-rules.ts).
 */

/** The transport faults a rule can inject instead of a normal answer. */
export const faultKinds = ['connection_reset', 'empty_response', 'malformed_body', 'hang', 'drip'] as const
export type FaultKind = (typeof faultKinds)[number]

/** Whether a rule holds the request it applies to (hang, drip): a held request counts against its tenant's quota.held. */
export const holdsRequest = (rule: { fault?: FaultKind | undefined }): boolean =>
  rule.fault === 'hang' || rule.fault === 'drip'

/** A rule as a client writes it. */
export interface FaultRuleInput extends RuleAnswerFields {
  operation?: string
  status?: number
  delayMs?: number
  fault?: FaultKind
  times?: number
  probability?: number
  petId?: number
  /** Conditions on the request beyond operation and petId (see rule-match.ts). */
  when?: RuleWhen
}

/** A stored rule: its id, the name it was PUT under (if any) and, for a rule with `times`, how many matches remain. */
export interface FaultRule extends FaultRuleInput {
  id: number
  /** Set by `PUT /__admin/faults/{name}`: 1–64 of `[A-Za-z0-9._-]`, not digits only (those are ids), not `.` or `..`. */
  name?: string
  remaining?: number
}

/** A rule's name: what a client PUTs it under (`.` and `..` are dot segments no URL keeps: session-name.ts). */
export const ruleNamePattern = '^(?![0-9]+$)(?!\\.\\.?$)[A-Za-z0-9._-]{1,64}$'
const RULE_NAME = new RegExp(ruleNamePattern)

/** Why `name` cannot name a rule (a sentence naming it), or undefined when it can. */
export const checkRuleName = (name: string): string | undefined => {
  if (RULE_NAME.test(name)) return undefined
  if (/^[0-9]+$/.test(name))
    return `name ${JSON.stringify(name)} is digits only, which is a rule id; a name needs another character`
  return `name must be ${pathNameRule} (got ${JSON.stringify(name.slice(0, 80))})`
}

/** A PUT's outcome: the rule as stored, and whether it was created (else it replaced the rule of that name). */
export interface PutFaultResult {
  rule: FaultRule
  created: boolean
}

/** What a request is matched on. */
export interface FaultTarget {
  operation: string
  /** getPet's petId as sent, for rules with `petId`. */
  petId?: string
  /** What rules with `when` look at: the request's facts, made when first asked for. */
  facts?: RequestFacts
}

/** Longest delay a rule, an override or --delay may ask for, in ms. */
export const maxDelayMs = 60_000

const statusRange = (input: unknown): string => {
  const own = input !== null && typeof input === 'object' && hasOwnAnswer(input as RuleAnswerFields)
  return `status must be an integer between ${own ? 200 : 400} and 599`
}

/**
 * Checks rule inputs; the result is the rule or a sentence naming the field.
 * `spec` (default: the bundled contract) decides which query parameters and
 * body fields a `when` may name and whether a rule's own answer keeps the
 * contract: one that does not is refused unless the rule says
 * `breaksContract: true`.
 */
export const createRuleValidator = (operations: readonly string[], spec: Spec = bundledSpec()) => {
  // Generated ahead of time from admin-openapi.yaml's FaultRuleInput, the schema the document shows
  // clients (npm run generate): one schema, no code compiled at run time.
  const validate = faultRule as ValidateFunction
  return (input: unknown): FaultRuleInput | string => {
    // A number too large to hold (`1e999`) parses to an object: the schema would call its digits a field.
    if (!isJsonObject(input)) return 'A fault rule must be a JSON object'
    if (!validate(input)) {
      const error = validate.errors![0]!
      if (error.instancePath === '/status') return statusRange(input)
      // Where a check of its own says more than the schema's first error (which of `when.apiKey`'s two
      // forms was meant; how many headers an answer may have), its sentence. The error lies inside the
      // field, so the input is an object holding it.
      const rule = input as FaultRuleInput
      const own = error.instancePath.startsWith('/when/apiKey')
        ? checkApiKey(rule.when?.apiKey)
        : error.instancePath.startsWith('/headers')
          ? checkAnswer(rule)
          : undefined
      return own ?? describeSchemaError(error, 'A fault rule')
    }
    const rule = input as FaultRuleInput
    if (rule.operation !== undefined && !operations.includes(rule.operation)) {
      return `operation ${expectation({ enum: [...operations] })}`
    }
    if (rule.status === undefined && rule.delayMs === undefined && rule.fault === undefined && !hasOwnAnswer(rule)) {
      return 'A fault rule needs at least one of status, delayMs, fault'
    }
    if (rule.status !== undefined && rule.status < 400 && !hasOwnAnswer(rule)) return statusRange(rule)
    if (rule.status !== undefined && rule.fault !== undefined) return 'status cannot be combined with fault'
    if (rule.petId !== undefined && rule.operation !== undefined && rule.operation !== 'getPet') {
      return 'petId applies to getPet only'
    }
    const answer = checkAnswer(rule)
    if (answer) return answer
    const when = rule.when === undefined ? undefined : checkWhen(rule.when, spec, rule)
    if (when) return when
    if (hasOwnAnswer(rule) && !rule.breaksContract) {
      const prepared = prepareAnswer(rule as FaultRuleInput & { status: number })
      const operation = rule.operation ?? (rule.petId !== undefined ? 'getPet' : undefined)
      for (const op of spec.operations) {
        if (operation !== undefined && op.id !== operation) continue
        // A rule on body fields applies to operations with a body only.
        if (rule.when?.body !== undefined && op.requestBody === undefined) continue
        const broken = contractBreak(spec, op, prepared)
        if (broken) {
          return `This answer breaks the contract (${broken}); to send it anyway, mark the rule breaksContract: true`
        }
      }
    }
    return rule
  }
}

const specValidators = new WeakMap<Spec, (input: unknown) => FaultRuleInput | string>()

/**
 * The fault-rule check of a contract (its operations are the ones a rule may
 * name), built once per contract: the admin API, the start-up options of both
 * hosts and the msw controls all check rules with it.
 */
export const ruleValidatorFor = (spec: Spec): ((input: unknown) => FaultRuleInput | string) => {
  let validate = specValidators.get(spec)
  if (validate === undefined) {
    validate = createRuleValidator(
      spec.operations.map((op) => op.id),
      spec,
    )
    specValidators.set(spec, validate)
  }
  return validate
}

/** Most fault rules a session holds: every request looks at them, and a client may add them without end. */
export const maxFaultRules = 1000

/** Why a rule was not added: the session holds {@link maxFaultRules} already. */
export type FaultsFull = 'full'

/**
 * Checks a list of start-up rules (`--faults`, the msw `faults` option):
 * the rules, or a sentence naming the source, the entry and the field.
 */
export const checkFaultRules = (
  data: unknown,
  validate: (input: unknown) => FaultRuleInput | string,
  source: string,
): FaultRuleInput[] | string => {
  if (!Array.isArray(data)) return `${source}: must be an array of fault rules`
  if (data.length > maxFaultRules)
    return `${source}: ${data.length} fault rules exceed the most a session holds, ${maxFaultRules}`
  const rules: FaultRuleInput[] = []
  for (const [i, entry] of data.entries()) {
    const rule = validate(entry)
    if (typeof rule === 'string') return `${source}: entry ${i}: ${rule}`
    rules.push(rule)
  }
  return rules
}
