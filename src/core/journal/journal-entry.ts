import { getQueryParams } from 'hono/utils/url'
import { isSafeNumber, parse as parseLossless } from 'lossless-json'
import { type JournalRecord, type KeptBody } from './journal.js'
import { headerRecord } from '../http/header-list.js'
import { type Shaping } from '../notes/request-notes.js'
import { traceIdOf } from '../http/request/traceparent.js'
import type { components } from '../../generated/admin-types.js'

/**
 * One recorded request, as GET /__admin/requests and the event stream show it: admin-openapi.yaml's
 * `JournalEntry` (its fields described there), generated, so that the server builds what the document says.
 */
export type JournalEntry = components['schemas']['JournalEntry']

/**
 * The trace a recorded request belongs to: its span's (when the host traces), else the caller's
 * `traceparent` as recorded with its headers; undefined for neither. Read when shown: a request
 * costs nothing for it.
 */
export const recordedTraceId = (record: JournalRecord): string | undefined => {
  if (record.traceId !== undefined) return record.traceId
  const headers = record.headers
  for (let i = 0; i + 1 < headers.length; i += 2) {
    const name = headers[i]!
    if (name.length === 11 && name.toLowerCase() === 'traceparent') return traceIdOf(headers[i + 1])
  }
  return undefined
}

/** The query parameters of a recorded URL, as `c.req.queries()` reads them: a value, or the values of a repeated name. */
export const queryOf = (url: string): JournalEntry['query'] =>
  Object.fromEntries(
    Object.entries(getQueryParams(url) as Record<string, string[]>).map(([k, v]) => [k, v.length === 1 ? v[0]! : v]),
  )

// Only a number with 16+ digits or a 3-digit exponent can lose precision in JSON.parse.
const MAYBE_INEXACT = /[0-9]{16}|[eE][+-]?[0-9]{3}/

const exactJson = (text: string): { ok: true; value: unknown } | { ok: false } => {
  if (!MAYBE_INEXACT.test(text)) return { ok: true, value: JSON.parse(text) }
  let exact = true
  const value = parseLossless(text, null, (digits) => {
    if (!isSafeNumber(digits)) exact = false
    return Number(digits)
  })
  return exact ? { ok: true, value } : { ok: false }
}

/** Parsed when it is JSON JavaScript holds exactly; otherwise the text as it was sent. */
const shown = (body: KeptBody): unknown => {
  if (!body.json) return body.text
  try {
    const parsed = exactJson(body.text)
    return parsed.ok ? parsed.value : body.text
  } catch {
    return body.text
  }
}

const bodyFields = (body: KeptBody | undefined): { body?: unknown; bodyTruncated?: true } => {
  if (body === undefined) return {}
  return body.truncatedFrom === undefined ? { body: shown(body) } : { body: body.text, bodyTruncated: true }
}

/** The client's view of a record: bodies parsed, the redacted Authorization repeated on its own. */
export const toEntry = (record: JournalRecord): JournalEntry => {
  const {
    id,
    time,
    method,
    path,
    operation,
    status,
    durationMs,
    response,
    shapedBy,
    violations,
    apiKeyFingerprint,
    cut,
  } = record
  const headers = headerRecord(record.headers)
  const authorization = headers['authorization']
  const traceId = recordedTraceId(record)
  return {
    id,
    time: new Date(time).toISOString(),
    method,
    path,
    query: queryOf(record.url),
    operation,
    status,
    durationMs,
    ...(authorization !== undefined && { authorization }),
    ...(apiKeyFingerprint !== undefined && { apiKeyFingerprint }),
    headers,
    ...bodyFields(record.body),
    ...(response && {
      response: { status: response.status, headers: headerRecord(response.headers), ...bodyFields(response.body) },
    }),
    ...(shapedBy && { shapedBy }),
    ...(violations && { violations }),
    ...(traceId !== undefined && { traceId }),
    ...(cut && { cut }),
  }
}
