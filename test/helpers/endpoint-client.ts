/**
 * A client that spreads its requests round robin over an endpoint list, as a Service's proxy does
 * over the ready pods: a test adds an endpoint when it is ready and removes it before stopping it.
 * Every request is bounded in time; a connection error or a timeout is recorded as a failure.
 */
export class EndpointClient {
  #endpoints: string[] = []
  #next = 0
  readonly #inFlight = new Map<string, number>()
  /** What went wrong, one line each: a request that failed, or an answer the caller refused. */
  readonly failures: string[] = []
  /** Requests answered, by endpoint. */
  readonly answered = new Map<string, number>()

  /** How long a request may take before it counts as failed, ms. */
  readonly timeoutMs: number

  constructor(timeoutMs = 15_000) {
    this.timeoutMs = timeoutMs
  }

  get endpoints(): readonly string[] {
    return this.#endpoints
  }

  add(url: string): void {
    this.#endpoints = [...this.#endpoints, url]
  }

  /** Takes an endpoint off the list: no new request goes to it (those under way finish). */
  remove(url: string): void {
    this.#endpoints = this.#endpoints.filter((endpoint) => endpoint !== url)
  }

  /** Resolves once no request to `url` is under way (bounded: rejects after `timeoutMs`). */
  async idle(url: string, timeoutMs = 30_000): Promise<void> {
    const until = Date.now() + timeoutMs
    while ((this.#inFlight.get(url) ?? 0) > 0) {
      if (Date.now() > until) throw new Error(`requests to ${url} still under way after ${timeoutMs} ms`)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }

  /** Sends to the next endpoint of the list; undefined (a failure recorded) when no answer came. */
  async send(path: string, init: RequestInit = {}): Promise<{ res: Response; text: string; url: string } | undefined> {
    const list = this.#endpoints
    if (list.length === 0) return void this.failures.push(`${init.method ?? 'GET'} ${path}: no endpoint`)
    const url = list[this.#next++ % list.length]!
    this.#inFlight.set(url, (this.#inFlight.get(url) ?? 0) + 1)
    try {
      const res = await fetch(`${url}${path}`, { ...init, signal: AbortSignal.timeout(this.timeoutMs) })
      const text = await res.text()
      this.answered.set(url, (this.answered.get(url) ?? 0) + 1)
      return { res, text, url }
    } catch (error) {
      this.failures.push(`${init.method ?? 'GET'} ${url}${path}: ${(error as Error).message}`)
      return undefined
    } finally {
      this.#inFlight.set(url, this.#inFlight.get(url)! - 1)
    }
  }
}
