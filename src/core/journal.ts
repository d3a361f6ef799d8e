/** How an answer was shaped by the mock's controls, when it was. */
export type Shaping =
  | { by: 'override'; status?: number; delayMs?: number }
  | { by: 'fault'; ruleId: number; status?: number; delayMs?: number; fault?: string }
  | { by: 'latency'; delayMs: number }

/** One recorded request. */
export interface JournalEntry {
  id: number
  time: string
  method: string
  path: string
  query: Record<string, string | string[]>
  operation: string | null
  /** 0 when no answer was sent (connection_reset). */
  status: number
  durationMs: number
  /** `Bearer ab…`: the scheme and at most the token's first two characters. */
  authorization?: string
  /** The POST body: parsed JSON, or the text when it is not JSON; cut at `maxBodyChars`. */
  body?: unknown
  bodyTruncated?: true
  shapedBy?: Shaping[]
}

/** Filters of {@link Journal.list}. */
export interface JournalQuery {
  operation?: string
  status?: number
  limit?: number
}

/** Longest request body text kept per entry, so memory stays bounded whatever clients send. */
export const maxBodyChars = 4096

/** Redacts an Authorization header to its scheme and a hint of the token. */
export const redactAuthorization = (header: string): string => {
  const [scheme = '', token = ''] = header.trim().split(/\s+/, 2)
  return token.length >= 8 ? `${scheme} ${token.slice(0, 2)}…` : `${scheme} …`
}

/**
 * A bounded ring of the latest requests: once full, each new entry replaces
 * the oldest, so memory stays flat under any load. Knows nothing of HTTP.
 */
export class Journal {
  readonly #entries: JournalEntry[] = []
  readonly #capacity: number
  #next = 0
  #nextId = 1

  constructor(capacity: number) {
    this.#capacity = capacity
  }

  get size(): number {
    return this.#entries.length
  }

  record(entry: Omit<JournalEntry, 'id'>): JournalEntry {
    const stored = { id: this.#nextId++, ...entry }
    if (this.#capacity === 0) return stored
    this.#entries[this.#next] = stored
    this.#next = (this.#next + 1) % this.#capacity
    return stored
  }

  /** Newest first, filtered. */
  list(query: JournalQuery = {}): JournalEntry[] {
    const result: JournalEntry[] = []
    const limit = query.limit ?? this.#capacity
    for (let i = 1; i <= this.#entries.length && result.length < limit; i++) {
      const entry = this.#entries[(this.#next - i + this.#entries.length) % this.#entries.length]!
      if (query.operation !== undefined && entry.operation !== query.operation) continue
      if (query.status !== undefined && entry.status !== query.status) continue
      result.push(entry)
    }
    return result
  }

  clear(): void {
    this.#entries.length = 0
    this.#next = 0
  }
}
