import type { BudgetPort, JournalCharge, JournalOwner } from '../budget/budget-port.js'
import { latin1TextBytes, textBytes } from '../budget/costs.js'
import { keptPrefix } from '../http/own-copy.js'
import type { HeaderList, KeptHeaders } from '../http/header-list.js'
import type { Shaping } from '../notes/request-notes.js'

/** Longest body text (request and response each) kept per entry, so memory stays bounded whatever is sent. */
export const maxBodyChars = 4096

/** A body as the journal keeps it: its text, cut at {@link maxBodyChars}. */
export interface KeptBody {
  text: string
  /** Whether the text is JSON that parsed, so that it can be shown parsed. */
  json: boolean
  /** Set when the text was cut: the size of the whole body in UTF-8 bytes. */
  truncatedFrom?: number
}

/** The answer as recorded: absent when none was sent (connection_reset). */
export interface RecordedResponse {
  status: number
  headers: KeptHeaders
  body?: KeptBody
}

/**
 * One request as the journal keeps it: texts, not parsed values, so that its
 * size is bounded by characters and a HAR gets the exact bytes. The view
 * clients see is {@link JournalEntry} (see journal-entry.ts).
 */
export interface JournalRecord {
  id: number
  /** When the answer was complete (real time, epoch ms; shown as ISO). */
  time: number
  method: string
  /** The full request URL, as received (the query is read from it when shown). */
  url: string
  path: string
  operation: string | null
  /** 0 when no answer was sent (connection_reset). */
  status: number
  durationMs: number
  /** Request headers, Authorization redacted. */
  headers: HeaderList
  /** The fingerprint of the bearer token sent (http/request/key-fingerprint.ts), when one was. */
  apiKeyFingerprint?: string
  body?: KeptBody
  response?: RecordedResponse
  shapedBy?: Shaping[]
  /** With --proxy: how the request and the deployment's answer depart from the contract. */
  violations?: string[]
  /** The trace of the request's span, when the host traces (observe/); a caller's traceparent is read from `headers`. */
  traceId?: string
  /** What was cut to keep the entry within its bytes (`url`, `header <name>`, `headers`); absent when nothing. */
  cut?: string[]
}

/** Filters of {@link Journal.list}. */
export interface JournalQuery {
  operation?: string
  status?: number
  /** The request's method, upper case. */
  method?: string
  /** The request's path, exactly. */
  path?: string
  /** Recorded at or after this instant (epoch ms). */
  since?: number
  /** Recorded before this instant (epoch ms). */
  until?: number
  /** Entries with a greater id only (the cursor of GET /__admin/requests?after=). */
  after?: number
  limit?: number
}

/** Whether `query` filters at all (beside its limit): a store then reads the whole journal to fill the limit. */
export const filters = (query: JournalQuery): boolean =>
  query.operation !== undefined ||
  query.status !== undefined ||
  query.method !== undefined ||
  query.path !== undefined ||
  query.since !== undefined ||
  query.until !== undefined ||
  query.after !== undefined

/** Whether a record passes every filter of `query` (its limit aside): one reading for every store. */
export const matchesQuery = (entry: JournalRecord, query: JournalQuery): boolean =>
  (query.operation === undefined || entry.operation === query.operation) &&
  (query.status === undefined || entry.status === query.status) &&
  (query.method === undefined || entry.method === query.method) &&
  (query.path === undefined || entry.path === query.path) &&
  (query.since === undefined || entry.time >= query.since) &&
  (query.until === undefined || entry.time < query.until) &&
  (query.after === undefined || entry.id > query.after)

/** Who is told of each new record; `end` when the journal stops telling (its session is gone). */
export interface JournalListener {
  record(record: JournalRecord): void
  end(): void
}

/** Size of a text in UTF-8 bytes, without encoding it. */
export const utf8Length = (text: string): number => {
  let bytes = text.length
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) continue
    if (code < 0x800) {
      bytes += 1
      continue
    }
    // 3 bytes for one unit; a surrogate pair is 4 bytes for two units, a lone surrogate U+FFFD (3 bytes).
    bytes += 2
    const next = text.charCodeAt(i + 1)
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++
  }
  return bytes
}

/**
 * A body's text as kept: cut at {@link maxBodyChars}, the cut copied (see
 * own-copy.ts): a view on a long body would hold it all (up to the body
 * limit) alive for as long as its entry.
 */
export const keepBody = (text: string, json: boolean): KeptBody => {
  if (text.length <= maxBodyChars) return { text, json }
  return { text: keptPrefix(text, maxBodyChars), json: false, truncatedFrom: utf8Length(text) }
}

/** Longest URL kept in an entry, in characters; the cut ends with `…` and is listed in `cut`. */
export const maxUrlChars = 2048
/** Longest request header value kept in an entry, in characters. */
export const maxHeaderValueChars = 1024
/** Most characters of request headers (names and values) kept in an entry; the headers beyond are left out. */
export const maxHeaderChars = 8192

const cutText = (text: string, max: number): string => `${keptPrefix(text, max - 1)}…`

/** A URL (or path: `what`) as kept: cut at {@link maxUrlChars}, the cut noted in `cut`. */
export const keepUrl = (url: string, cut: string[], what = 'url'): string => {
  if (url.length <= maxUrlChars) return url
  cut.push(what)
  return cutText(url, maxUrlChars)
}

/**
 * Request headers as kept, in place: each value cut at {@link maxHeaderValueChars}, and the
 * headers beyond {@link maxHeaderChars} in all left out; each cut noted in `cut`.
 */
export const keepHeaders = (headers: string[], cut: string[]): string[] => {
  let chars = 0
  for (let i = 0; i + 1 < headers.length; i += 2) {
    const value = headers[i + 1]!
    if (value.length > maxHeaderValueChars) {
      headers[i + 1] = cutText(value, maxHeaderValueChars)
      cut.push(`header ${headers[i]!.toLowerCase()}`)
    }
    chars += headers[i]!.length + headers[i + 1]!.length
    if (chars > maxHeaderChars) {
      cut.push('headers')
      headers.length = i
      break
    }
  }
  return headers
}

const listBytes = (list: readonly string[]): number => {
  let bytes = 16 + 8 * list.length
  for (const text of list) bytes += textBytes(text)
  return bytes
}

// Header names and values and the URL are Latin-1 texts (budget/costs.ts: latin1TextBytes): counted
// without a test each.
const headerListBytes = (list: readonly string[]): number => {
  let bytes = 16 + 8 * list.length
  for (const text of list) bytes += latin1TextBytes(text)
  return bytes
}

const headerObjectBytes = (headers: Readonly<Record<string, string>>): number => {
  let bytes = 16
  for (const name in headers) bytes += 16 + latin1TextBytes(name) + latin1TextBytes(headers[name]!)
  return bytes
}

const keptBodyBytes = (body: KeptBody | undefined): number => (body ? 48 + textBytes(body.text) : 0)

/** What an entry costs the journal's share of the memory budget (see budget/costs.ts). */
export const recordBytes = (record: Omit<JournalRecord, 'id'>): number => {
  const response = record.response
  // The path as hono gives it is decoded (it may hold any character); the URL is percent-encoded.
  let bytes = 400 + latin1TextBytes(record.url) + textBytes(record.path) + headerListBytes(record.headers)
  bytes += keptBodyBytes(record.body)
  if (response) {
    bytes += 64 + keptBodyBytes(response.body)
    bytes += Array.isArray(response.headers)
      ? headerListBytes(response.headers as string[])
      : headerObjectBytes(response.headers as Readonly<Record<string, string>>)
  }
  if (record.shapedBy) bytes += 96 * record.shapedBy.length
  if (record.violations) bytes += listBytes(record.violations)
  if (record.cut) bytes += listBytes(record.cut)
  return bytes
}

/**
 * A bounded ring of the latest requests: once full, each new record replaces
 * the oldest, so memory stays flat under any load. Listeners hear of every
 * record as it is made. Knows nothing of HTTP.
 */
export class Journal implements JournalOwner {
  // A ring: `#count` records from `#start`, each with its charge on the memory budget.
  readonly #entries: (JournalRecord | undefined)[] = []
  readonly #charges: (JournalCharge | undefined)[] = []
  readonly #capacity: number
  readonly #budget: BudgetPort | undefined
  readonly #listeners = new Set<JournalListener>()
  #start = 0
  #count = 0
  #nextId = 1
  #dropped = 0

  /** `budget`: the entries are charged to its journal share, which drops the oldest of any session to make room. */
  constructor(capacity: number, budget?: BudgetPort) {
    this.#capacity = capacity
    this.#budget = budget
  }

  get size(): number {
    return this.#count
  }

  /** Stores the record (it is the journal's from now on) under the next id, and tells the listeners. */
  record(entry: Omit<JournalRecord, 'id'>): JournalRecord {
    const stored = entry as JournalRecord
    stored.id = this.#nextId++
    // With no room at all, the new one is dropped; in a full ring, the oldest entry makes room.
    if (this.#capacity === 0) this.#dropped++
    else {
      if (this.#count === this.#capacity) this.dropOldest()
      // Making room may drop this journal's own oldest entries too: the slot is found after.
      const charge = this.#budget?.chargeJournal(this, recordBytes(stored))
      const slot = (this.#start + this.#count) % this.#capacity
      this.#entries[slot] = stored
      this.#charges[slot] = charge
      this.#count++
    }
    for (const listener of this.#listeners) listener.record(stored)
    return stored
  }

  /** Drops the oldest entry to make room (the ring is full, or the budget's journal share), counted in `dropped`. */
  dropOldest(): void {
    if (this.#count === 0) return
    this.#dropped++
    this.#removeOldest()
  }

  /** Removes the oldest entry, giving its bytes back to the budget. */
  #removeOldest(): void {
    const charge = this.#charges[this.#start]
    this.#entries[this.#start] = undefined
    this.#charges[this.#start] = undefined
    this.#start = (this.#start + 1) % this.#capacity
    this.#count--
    if (charge) this.#budget!.releaseJournal(charge)
  }

  /** Newest first, filtered. */
  list(query: JournalQuery = {}): JournalRecord[] {
    const result: JournalRecord[] = []
    const limit = query.limit ?? this.#capacity
    for (let i = this.#count - 1; i >= 0 && result.length < limit; i--) {
      const entry = this.#entries[(this.#start + i) % this.#capacity]!
      if (matchesQuery(entry, query)) result.push(entry)
    }
    return result
  }

  /** Entries the ring dropped to make room since the journal began (clearing it drops none). */
  get dropped(): number {
    return this.#dropped
  }

  /** Empties the ring; ids keep counting, so a reader that saw id n never sees it again. */
  clear(): void {
    while (this.#count > 0) this.#removeOldest()
    this.#entries.length = 0
    this.#charges.length = 0
    this.#start = 0
  }

  /** Tells `listener` of every new record until the returned function is called. */
  subscribe(listener: JournalListener): () => void {
    this.#listeners.add(listener)
    return () => void this.#listeners.delete(listener)
  }

  get listeners(): number {
    return this.#listeners.size
  }

  /** Ends every subscription (the session is dropped, or the server stops). */
  endSubscriptions(): void {
    const listeners = [...this.#listeners]
    this.#listeners.clear()
    for (const listener of listeners) listener.end()
  }
}
