import type { Spec, SpecOperation } from '../../../core/spec/spec.js'
import type { ObservedAnswer } from '../../../core/spec/answer-drifts.js'
import { NoAnswer, type Probe, send } from './probe.js'
import { contractDrifts } from '../../../core/spec/answer-drifts.js'

/** One line of the report: a check that passed, drifted or was skipped. */
export interface CheckResult {
  id: string
  operation: string
  title: string
  outcome: 'ok' | 'drift' | 'skipped'
  drifts: string[]
  /** Why it was skipped. */
  note?: string
}

/** What verify needs to know about the run. */
export interface VerifySettings {
  spec: Spec
  /** The deployment's base URL, with its base path (`…/v1`), no trailing slash. */
  baseUrl: string
  token: string
  timeoutMs: number
  /** False: only reads run (--no-writes). */
  writes: boolean
}

/** One step of the scenario: a request, the status the contract says it gets, and any check beyond the contract's. */
export interface Step {
  id: string
  operation: string
  title: string
  /** A request that may change the deployment's state (skipped with --no-writes). */
  write?: boolean
  probe: Probe
  expected: number
  /** Further drifts of an answer with the expected status (a filter not applied, a pet not read back). */
  extra?: (answer: ObservedAnswer) => string[]
}

/** The state of a run: the results so far and the `code` values seen per status. */
export class RunContext {
  readonly results: CheckResult[] = []
  readonly codes = new Map<number, string>()
  requests = 0

  constructor(readonly settings: VerifySettings) {}

  operation(id: string): SpecOperation | undefined {
    return this.settings.spec.operations.find((op) => op.id === id)
  }

  get bearer(): string {
    return `Bearer ${this.settings.token}`
  }

  skip(step: Pick<Step, 'id' | 'operation' | 'title'>, note: string): void {
    this.results.push({
      id: step.id,
      operation: step.operation,
      title: step.title,
      outcome: 'skipped',
      drifts: [],
      note,
    })
  }

  /**
   * Sends a request and keeps no result: the caller reads the answer. The
   * first request of a run that gets no answer ends the run (NoAnswer: the
   * URL is unreachable); a later one is a drift of the caller's.
   */
  async send(probe: Probe): Promise<ObservedAnswer> {
    const first = this.requests === 0
    this.requests++
    try {
      const answer = await send(this.settings.baseUrl, probe, this.settings.timeoutMs)
      const code = (answer.json as { code?: unknown } | undefined)?.code
      if (answer.status >= 400 && typeof code === 'string' && !this.codes.has(answer.status)) {
        this.codes.set(answer.status, code)
      }
      return answer
    } catch (error) {
      if (first || !(error instanceof NoAnswer)) throw error
      return { status: 0, headers: new Headers(), text: '', jsonError: error.message }
    }
  }

  /** Runs a step: its result recorded, its answer returned (undefined when skipped or unanswered). */
  async run(step: Step): Promise<ObservedAnswer | undefined> {
    const operation = this.operation(step.operation)
    if (!operation) return void this.skip(step, `the contract has no ${step.operation}`)
    if (step.write && !this.settings.writes) return void this.skip(step, '--no-writes')
    const answer = await this.send(step.probe)
    if (answer.status === 0) {
      this.results.push({ ...this.head(step), outcome: 'drift', drifts: [`${step.operation}: ${answer.jsonError}`] })
      return undefined
    }
    const drifts = contractDrifts(this.settings.spec, operation, answer, step.expected)
    if (drifts.length === 0 && step.extra) drifts.push(...step.extra(answer))
    this.results.push({ ...this.head(step), outcome: drifts.length === 0 ? 'ok' : 'drift', drifts })
    return answer
  }

  private head(step: Step): Pick<CheckResult, 'id' | 'operation' | 'title'> {
    return { id: step.id, operation: step.operation, title: step.title }
  }
}
