import { isJsonType } from '../http/json.js'
import { type JournalRecord, keepBody, type RecordedResponse } from './journal.js'
import type { Shaping } from '../notes/request-notes.js'
import { RepeatedParts } from './repeated-parts.js'
import { authorizationOf } from '../http/request/authorization.js'
import { type Redaction, redactHeaderList, redactionOf } from './redaction.js'
import { type MaybePromise, whenReady } from '../async/maybe-promise.js'
import type { SessionReader } from '../http/request/session-reader.js'
import type { JournalSlice } from './journal-slice.js'
import type { SpecOperation } from '../spec/spec.js'
import type { Transport } from '../http/transport.js'
import { builtAnswer } from '../http/respond.js'
import { bearerKey, keyFingerprint } from '../http/request/key-fingerprint.js'
import type { AnswerListener, RequestContext } from '../http/stage.js'
// The variables read here: the body and its text, and the notes.
import type {} from '../body/read-body.js'
import type { RequestClock } from '../http/request-clock.js'

const isJsonText = (text: string): boolean => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/** The answer as recorded: its parts as built (respond.ts), else read from the Response (a copy). */
const responseOf = (
  c: RequestContext,
  res: Response,
  parts: RepeatedParts,
): RecordedResponse | Promise<RecordedResponse> => {
  const built = builtAnswer(res)
  // Reading a built answer's parts from the Response would turn its plain headers into a web Headers.
  if (built !== undefined)
    return parts.response(res.status, built.headers, c.req.method === 'HEAD' ? null : built.text, built.json)
  // Replaced on the way out (malformed_body, CORS headers merged by hono) or built by a hono middleware.
  const headers: string[] = []
  res.headers.forEach((value, name) => headers.push(name, value))
  redactHeaderList(headers, parts.redaction)
  const recorded: RecordedResponse = { status: res.status, headers }
  if (c.req.method === 'HEAD') return recorded
  return res
    .clone()
    .text()
    .then((text) => {
      if (text !== '') recorded.body = keepBody(text, isJsonType(res.headers.get('content-type')) && isJsonText(text))
      return recorded
    })
}

/** Stores the entry with its answer as recorded. */
const store = (response: RecordedResponse, entry: Omit<JournalRecord, 'id'>, journal: JournalSlice): unknown => {
  entry.response = response
  return journal.record(entry)
}

/**
 * Records the answered request (`res`; undefined when the connection was
 * reset) in the journal of the session it selected, if it selected one.
 * Synchronous unless the answer's body must be read from the Response, or
 * the store answers later: then what settles once the entry is stored.
 */
const record = (
  c: RequestContext,
  operation: string | null,
  clock: RequestClock,
  res: Response | undefined,
  { transport, session }: JournalOptions,
  parts: RepeatedParts,
): MaybePromise<unknown> => {
  const journal = session(c)
  if (journal === undefined) return
  const shapedBy = c.get('shaping')
  const reset =
    res === undefined ||
    shapedBy?.some((s: Shaping) => s.by === 'fault' && (s.fault === 'connection_reset' || s.fault === 'hang'))
  // Long URLs and header values are cut, so that an entry's bytes are bounded; the cuts are listed
  // (in one array kept for every request: almost none is cut, and this is synchronous).
  const cut = cuts
  cut.length = 0
  const bodyText = c.get('bodyText')
  // One literal with every field, those absent undefined: an entry lives for its journal's 1,000
  // requests, and fields added one by one would cost it a property array of its own.
  const entry: JournalRecord = {
    id: 0,
    time: Date.now(),
    method: c.req.method,
    url: parts.url(c.req.url, cut),
    path: parts.path(c.req.path, cut),
    operation,
    status: reset ? 0 : res.status,
    durationMs: Math.round(clock.elapsedMs() * 100) / 100,
    headers: parts.headers(transport.requestHeaders(c), cut, parts.redactHeaders),
    apiKeyFingerprint: apiKeyOf(authorizationOf(c)),
    body: bodyText === undefined ? undefined : parts.body(bodyText, c.get('body') !== undefined),
    response: undefined,
    shapedBy,
    violations: c.get('violations'),
    traceId: c.get('trace')?.traceId,
    cut: undefined,
  }
  if (cut.length > 0) entry.cut = cut.slice()
  if (reset) return journal.record(entry)
  return whenReady(responseOf(c, res, parts), store, entry, journal)
}

const cuts: string[] = []

// The last Authorization header and its key's fingerprint: a client sends the same one on every request.
let lastHeader: string | undefined
let lastKey: string | undefined

/** The fingerprint of the header's bearer token; undefined without one. */
const apiKeyOf = (header: string | undefined): string | undefined => {
  if (header === undefined) return undefined
  if (header !== lastHeader) {
    const key = bearerKey(header)
    lastKey = key === undefined ? undefined : keyFingerprint(key)
    lastHeader = header
  }
  return lastKey
}

/** Options of {@link journalListener}. */
export interface JournalOptions {
  transport: Transport
  /** The request's session, as the journal sees it; undefined until one is selected. */
  session: SessionReader<JournalSlice | undefined>
  /** The headers and query parameters whose values are not kept (redaction.ts); default: the defaults. */
  redaction?: Redaction
}

/**
 * Records each request in the journal of the session it selected, with the
 * answer as it was sent (CORS headers included: the answer event is told it
 * first in the chain) or as reset: status 0, no answer. The answer goes out
 * once its entry is stored. Requests answered before a session was selected
 * (CORS preflights, a bad session name) are not recorded.
 */
export const journalListener = (operation: SpecOperation | undefined, options: JournalOptions): AnswerListener => {
  const id = operation?.id ?? null
  const parts = new RepeatedParts(options.redaction ?? redactionOf())
  return { answered: (c, res, clock) => record(c, id, clock, res, options, parts) }
}
