import type { CoverageModel } from './coverage-model.js'
import type { CoverageCounts } from './coverage-slice.js'

/** One response of the report: documented by the contract, or answered beyond it. */
export interface ResponseCoverage {
  operation: string
  status: number
  /** Whether openapi.yaml documents this status for the operation. */
  documented: boolean
  /** Answers with this status since the session's start or last reset. */
  requests: number
  /** Of which a fault rule, `Prefer` or `__code` injected. */
  injected: number
  /** Whether at least one request got it. */
  covered: boolean
  /**
   * Set on the row of a fault rule's own answers marked `breaksContract`:
   * beyond the contract even when the status is documented (not the
   * provider's behaviour, so they cover nothing).
   */
  breaksContract?: true
}

/** One class of input of an operation. */
export interface InputCoverage {
  operation: string
  in: 'query' | 'path' | 'body'
  name: string
  class: string
  description: string
  requests: number
  covered: boolean
}

/** GET /__admin/coverage: what a session's requests relied on, against the contract. */
export interface CoverageReport {
  session: string
  /** Documented responses that at least one request got. */
  covered: number
  /** Documented responses of the contract. */
  total: number
  /** covered / total × 100, to one decimal. */
  percent: number
  /** Requests counted (answers of the contract's operations). */
  requests: number
  /** Every documented response, then the statuses answered beyond the contract; by operation, then status. */
  responses: ResponseCoverage[]
  inputs: InputCoverage[]
}

/** Whether `percent` (0–100) of coverage is reached: exact, on the counts rather than the rounded percent. */
export const reaches = (report: Pick<CoverageReport, 'covered' | 'total'>, percent: number): boolean =>
  report.total === 0 || report.covered * 100 >= percent * report.total

/** The report of a session's counts. */
export const coverageReport = (model: CoverageModel, session: string, counts: CoverageCounts): CoverageReport => {
  const responses: ResponseCoverage[] = []
  let requests = 0
  const order = [...model.byOperation.keys()]
  const documented = new Set(model.documented.map((d) => `${d.operation} ${d.status}`))
  const seen = new Map<string, ResponseCoverage>()
  const row = (operation: string, status: number, beyond = false): ResponseCoverage => {
    const key = `${operation} ${status}`
    const found = seen.get(beyond ? `${key} beyond` : key)
    if (found) return found
    const made: ResponseCoverage = {
      operation,
      status,
      documented: !beyond && documented.has(key),
      requests: 0,
      injected: 0,
      covered: false,
      ...(beyond ? { breaksContract: true as const } : {}),
    }
    seen.set(beyond ? `${key} beyond` : key, made)
    responses.push(made)
    return made
  }
  for (const { operation, status } of model.documented) row(operation, status)
  for (const [name, value] of Object.entries(counts)) {
    const match = /^(\S+) (\d{3})( injected| beyond)?$/.exec(name)
    if (!match || !model.byOperation.has(match[1]!)) continue
    const beyond = match[3] === ' beyond'
    const r = row(match[1]!, Number(match[2]), beyond)
    if (match[3] === ' injected') r.injected += value
    else {
      if (beyond) r.injected += value
      r.requests += value
      requests += value
    }
  }
  for (const r of responses) r.covered = r.requests > 0
  responses.sort(
    (a, b) =>
      order.indexOf(a.operation) - order.indexOf(b.operation) ||
      a.status - b.status ||
      Number(a.breaksContract ?? false) - Number(b.breaksContract ?? false),
  )
  const covered = responses.filter((r) => r.documented && r.covered).length
  const total = model.documented.length
  return {
    session,
    covered,
    total,
    percent: total === 0 ? 100 : Math.round((covered / total) * 1000) / 10,
    requests,
    responses,
    inputs: model.inputs.map((input) => {
      const n = counts[input.counter] ?? 0
      return {
        operation: input.operation,
        in: input.in,
        name: input.name,
        class: input.class,
        description: input.description,
        requests: n,
        covered: n > 0,
      }
    }),
  }
}

/** The documented responses no request got, as `operation status`. */
export const uncovered = (report: CoverageReport): string[] =>
  report.responses.filter((r) => r.documented && !r.covered).map((r) => `${r.operation} ${r.status}`)
