/** GET /__admin/health's `proxy`: where requests go and how many answers broke the contract. */
export interface ProxyReport {
  upstream: string
  /** Requests forwarded to the deployment (answered by it, or 502/504). */
  forwarded: number
  /** Exchanges (request and answer) with at least one violation. */
  withViolations: number
  /** Violations in all, by operation (`request` for paths the contract does not have). */
  violations: Record<string, number>
}

/** Counts of a proxying app, over all sessions, since start-up. */
export class ProxyStats {
  #forwarded = 0
  #withViolations = 0
  readonly #violations = new Map<string, number>()

  /** The deployment's base URL (its base path added once the contract is known). */
  constructor(public upstream: string) {}

  /** One exchange and its violations. */
  count(operation: string | undefined, violations: number): void {
    this.#forwarded++
    if (violations === 0) return
    this.#withViolations++
    const key = operation ?? 'request'
    this.#violations.set(key, (this.#violations.get(key) ?? 0) + violations)
  }

  report(): ProxyReport {
    return {
      upstream: this.upstream,
      forwarded: this.#forwarded,
      withViolations: this.#withViolations,
      violations: Object.fromEntries(this.#violations),
    }
  }
}
