import { type KeptBody, keepBody, keepHeaders, keepUrl, type RecordedResponse } from './journal.js'
import { type HeaderList } from '../http/header-list.js'
import { type Redaction, redactHeaderList, redactHeaderRecord, redactionOf, redactUrl } from './redaction.js'

/**
 * The parts of a request the journal keeps, shared with the previous request's entry when they
 * repeat it: its header list, URL, path and body, the same strings and arrays.
 *
 * Why: a client sends the same headers, URL and body on most requests, and an entry lives for its
 * journal's 1,000 requests, far beyond a young-generation collection. Each entry's own copies
 * (~900 bytes on a create) were promoted to V8's old space, then marked and swept there as garbage:
 * most of a create's garbage-collection work, and what kept the heap growing. A repeat costs a
 * comparison of the texts instead. Kept parts are never changed once kept (HeaderList is
 * read-only; KeptBody is not written to), so sharing them is safe. One per journal stage, that is
 * per operation: interleaved clients of different operations keep their own.
 */
export class RepeatedParts {
  #rawHeaders: readonly string[] | undefined
  #headers: HeaderList = []
  #url: string | undefined
  #path: string | undefined
  #bodyText: string | undefined
  #bodyJson = false
  #body: KeptBody | undefined
  #response: RecordedResponse | undefined
  #responseText: string | null = null
  /** The last answer record given and its redacted form: a record is never changed once built (respond.ts). */
  #responseHeaders: Readonly<Record<string, string>> | undefined
  #responseKept: Readonly<Record<string, string>> = {}
  /** The headers and query parameters whose values are not kept (redaction.ts). */
  readonly redaction: Redaction
  /** Redacts a fresh request header list in place: the `keep` of {@link headers}. */
  readonly redactHeaders = (raw: string[]): string[] => redactHeaderList(raw, this.redaction)

  constructor(redaction: Redaction = redactionOf()) {
    this.redaction = redaction
  }

  /**
   * Request headers as kept (`keep` redacts and cuts a fresh list, noting cuts in `cut`): the
   * previous list when `raw` repeats the previous raw list and nothing was cut from it.
   */
  headers(raw: string[], cut: string[], keep: (raw: string[]) => string[]): HeaderList {
    const last = this.#rawHeaders
    if (last !== undefined && sameList(last, raw)) return this.#headers
    const before = cut.length
    // `keep` works in place: the raw list to compare with is a copy made first.
    const rawCopy = raw.slice()
    const kept = keepHeaders(keep(raw), cut)
    // A list that was cut is kept once: the cut must be noted on each entry.
    this.#rawHeaders = cut.length === before ? rawCopy : undefined
    this.#headers = kept
    return kept
  }

  /** The URL as kept ({@link keepUrl}, secrets in its query redacted): the previous one's string when it repeats it. */
  url(url: string, cut: string[]): string {
    if (url === this.#url) return this.#url
    const kept = keepUrl(redactUrl(url, this.redaction), cut)
    this.#url = kept === url ? url : undefined
    return kept
  }

  /** The path as kept ({@link keepUrl}, noted as `path`): the previous one's string when it repeats it. */
  path(path: string, cut: string[]): string {
    if (path === this.#path) return this.#path
    const kept = keepUrl(path, cut, 'path')
    this.#path = kept === path ? path : undefined
    return kept
  }

  /** The request body as kept ({@link keepBody}): the previous one's when the text and its kind repeat it. */
  body(text: string, json: boolean): KeptBody {
    const last = this.#body
    if (last !== undefined && json === this.#bodyJson && text === this.#bodyText) return last
    const kept = keepBody(text, json)
    this.#bodyText = text
    this.#bodyJson = json
    this.#body = kept
    return kept
  }

  /**
   * An answer as recorded from its built parts (`text` null or empty: none kept): the previous
   * record when it repeats its status, its headers (respond.ts shares the constant objects; an
   * answer with headers of its request, a deprecated operation's, gets a new object each time)
   * and its text.
   */
  response(
    status: number,
    headers: Readonly<Record<string, string>>,
    text: string | null,
    json: boolean,
  ): RecordedResponse {
    const last = this.#response
    // Secrets (a rule's or a deployment's Set-Cookie) are redacted: the constant objects are kept as they are.
    // The same record as last time (respond.ts' constants and folded records) is not scanned again.
    let kept = this.#responseKept
    if (headers !== this.#responseHeaders) {
      kept = redactHeaderRecord(headers, this.redaction)
      this.#responseHeaders = headers
      this.#responseKept = kept
    }
    if (
      last !== undefined &&
      last.status === status &&
      text === this.#responseText &&
      sameRecord(last.headers as Readonly<Record<string, string>>, kept)
    )
      return last
    const recorded: RecordedResponse = { status, headers: kept }
    if (text !== null && text !== '') recorded.body = keepBody(text, json)
    this.#response = recorded
    this.#responseText = text
    return recorded
  }
}

const sameRecord = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean => {
  if (a === b) return true
  let names = 0
  for (const name in a) {
    if (a[name] !== b[name]) return false
    names++
  }
  for (const _ in b) names--
  return names === 0
}

const sameList = (a: readonly string[], b: readonly string[]): boolean => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
