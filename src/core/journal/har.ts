import type { components } from '../../generated/admin-types.js'
import type { reasonPhrases } from '../http/http-status.js'
import type { JournalRecord, KeptBody, maxBodyChars, utf8Length } from './journal.js'
import type { HeaderList, headerList, headerRecord } from '../http/header-list.js'
import type { Shaping } from '../notes/request-notes.js'
import type { queryOf, recordedTraceId } from './journal-entry.js'

// The HAR the mock writes is admin-openapi.yaml's `Har` (generated): the fields of HAR 1.2 this mock
// writes, `_`-prefixed ones its own.

/** A name and a value: HAR's headers and query string. */
export type HarPair = components['schemas']['HarPair']

/** One HAR 1.2 entry (the fields this mock writes). */
export type HarEntry = components['schemas']['HarEntry']

/** A HAR 1.2 document. */
export type Har = components['schemas']['Har']

/**
 * What the HAR export takes from the modules an app loads at start, passed in by har-routes.ts: imported here,
 * they would be split by a browser bundle into small chunks of their own, shared with the start (msw's budget).
 */
export interface HarParts {
  reasonPhrases: typeof reasonPhrases
  maxBodyChars: typeof maxBodyChars
  utf8Length: typeof utf8Length
  headerList: typeof headerList
  headerRecord: typeof headerRecord
  queryOf: typeof queryOf
  recordedTraceId: typeof recordedTraceId
}

/** Journal records (newest first, as the journal lists them) as a HAR 1.2 document, oldest first. */
export const toHar = (
  records: readonly JournalRecord[],
  creator: { name: string; version: string },
  parts: HarParts,
): Har => {
  const { reasonPhrases, maxBodyChars, utf8Length, headerList, headerRecord, queryOf, recordedTraceId } = parts
  const pairs = (list: HeaderList): HarPair[] => {
    const result: HarPair[] = []
    for (let i = 0; i + 1 < list.length; i += 2) result.push({ name: list[i]!, value: list[i + 1]! })
    return result
  }

  const queryPairs = (url: string): HarPair[] =>
    Object.entries(queryOf(url)).flatMap(([name, value]) =>
      (Array.isArray(value) ? value : [value]).map((v) => ({ name, value: v })),
    )

  const cutNote = (body: KeptBody): { comment?: string } =>
    body.truncatedFrom === undefined
      ? {}
      : { comment: `text cut to its first ${maxBodyChars} characters (${body.truncatedFrom} bytes sent)` }

  const sizeOf = (body: KeptBody | undefined): number =>
    body === undefined ? 0 : (body.truncatedFrom ?? utf8Length(body.text))

  const REDIRECT = new Set([301, 302, 303, 307, 308])

  const responseOf = (record: JournalRecord): HarEntry['response'] => {
    const response = record.response
    if (!response) {
      return {
        status: 0,
        statusText: '',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [],
        content: { size: 0, mimeType: 'x-unknown' },
        redirectURL: '',
        headersSize: -1,
        bodySize: -1,
        comment: 'No answer: the connection was reset (connection_reset fault).',
      }
    }
    const { body, status } = response
    const headers = headerRecord(response.headers)
    const mimeType = headers['content-type'] ?? 'x-unknown'
    return {
      status,
      statusText: reasonPhrases[status] ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(headerList(response.headers)),
      content: { size: sizeOf(body), mimeType, ...(body && { text: body.text, ...cutNote(body) }) },
      redirectURL: REDIRECT.has(status) ? (headers['location'] ?? '') : '',
      headersSize: -1,
      bodySize: sizeOf(body),
    }
  }

  /** What a HAR says of an answer a fault rule made beyond the contract, so that nobody takes it for the provider's. */
  const beyondContract = (record: JournalRecord): string | undefined => {
    const shaping = record.shapedBy?.find((s) => s.by === 'fault' && s.breaksContract)
    return shaping?.by === 'fault'
      ? `Beyond the contract: ${shaping.timeline ? `timeline ${shaping.timeline.name}'s phase ${shaping.timeline.phase}` : `fault rule ${shaping.ruleId}`} sent its own answer, marked breaksContract; not the provider's behaviour.`
      : undefined
  }

  const traceOf = (record: JournalRecord): { _traceId?: string } => {
    const traceId = recordedTraceId(record)
    return traceId === undefined ? {} : { _traceId: traceId }
  }

  const entryOf = (record: JournalRecord): HarEntry => {
    const { body } = record
    const beyond = beyondContract(record)
    const response = responseOf(record)
    return {
      // The journal records when the answer was complete; HAR wants when the request started.
      startedDateTime: new Date(record.time - record.durationMs).toISOString(),
      time: record.durationMs,
      request: {
        method: record.method,
        url: record.url,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: pairs(record.headers),
        queryString: queryPairs(record.url),
        ...(body && {
          postData: { mimeType: headerRecord(record.headers)['content-type'] ?? '', text: body.text, ...cutNote(body) },
        }),
        headersSize: -1,
        bodySize: sizeOf(body),
      },
      response: beyond === undefined ? response : { ...response, comment: beyond },
      cache: {},
      timings: { send: 0, wait: record.durationMs, receive: 0 },
      ...(record.shapedBy && { _shapedBy: record.shapedBy }),
      ...(record.apiKeyFingerprint !== undefined && { _apiKeyFingerprint: record.apiKeyFingerprint }),
      ...(record.violations && { _violations: record.violations }),
      ...traceOf(record),
    }
  }

  return {
    log: { version: '1.2', creator, entries: records.map(entryOf).reverse() },
  }
}
