import type { JournalEntry, JournalQuery, RequestList } from '../types/index.js'
import { describeEntry, describeMatcher, matches, type RequestMatcher, serverQuery } from './request-filter.js'

/** Options of `requests.waitFor`. */
export interface WaitForOptions {
  /** How long to wait, ms: 0 to 600000, default 5000. */
  timeoutMs?: number
  /**
   * The pause between two reads while the session does not exist yet (nobody has used it), ms: 10 to
   * 60000, default 50. Once it exists, the mock itself waits (`GET /__admin/requests?wait=`): no polling.
   */
  intervalMs?: number
  /** Stops waiting; the promise rejects with the signal's reason. */
  signal?: AbortSignal
}

/** A page of the journal as GET /__admin/requests answers it (the wait's parameters included). */
export type JournalPage = Pick<RequestList, 'requests' | 'next'>

/** What waitFor asks: the server's filters, the cursor, and the server-side wait. */
export type WaitQuery = JournalQuery & { count?: number; wait?: string }

/**
 * How the journal is read: a page, or undefined while the session does not exist (404
 * session_not_found); a wait that ended first (the mock's 408) is an empty page at the cursor.
 */
export type ReadJournal = (query: WaitQuery, signal?: AbortSignal) => Promise<JournalPage | undefined>

/** The longest wait the mock takes in one request (`wait` is at most 60s); longer waits are several requests. */
const maxServerWaitMs = 60_000

/** Entries listed when no request matched. */
const shownEntries = 20

/** Time a read of the journal may take beyond its wait before waitFor gives up on the mock. */
const pollGraceMs = 2000

/** No recorded request matched within the time: `received` holds the latest ones, newest first. */
export class RequestNotReceivedError extends Error {
  override name = 'RequestNotReceivedError'
  readonly received: JournalEntry[]

  constructor(message: string, received: JournalEntry[]) {
    super(message)
    this.received = received
  }
}

const checkMs = (value: number, name: string, min: number, max: number): number => {
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new RangeError(`${name} must be between ${min} and ${max} ms (got ${value}).`)
  }
  return value
}

const sleep = (ms: number, signal: AbortSignal | undefined): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })

/** The oldest matching entry of a newest-first list. */
const oldestMatch = (entries: JournalEntry[], matcher: RequestMatcher): JournalEntry | undefined => {
  for (let i = entries.length - 1; i >= 0; i--) if (matches(entries[i]!, matcher)) return entries[i]
  return undefined
}

const notReceivedMessage = (
  matcher: RequestMatcher,
  timeoutMs: number,
  where: string,
  received: JournalEntry[],
): string => {
  const head = `No request matched ${describeMatcher(matcher)} within ${timeoutMs} ms in ${where}.`
  if (received.length === 0) {
    return `${head} Its journal is empty: did the code under test send its requests to this mock and session?`
  }
  const more = received.length === shownEntries ? ` (the latest ${shownEntries})` : ''
  return `${head} Received${more}, newest first:\n${received.map((e) => `  ${describeEntry(e)}`).join('\n')}`
}

/** The first matching entry of an oldest-first list. */
const firstMatch = (entries: JournalEntry[], matcher: RequestMatcher): JournalEntry | undefined =>
  entries.find((entry) => matches(entry, matcher))

/**
 * Waits until a recorded request matches; resolves with the oldest match, or rejects with
 * {@link RequestNotReceivedError} listing what was received. Reads the journal once, then asks the
 * mock to answer as soon as an entry after the last one read passes its filters
 * (`after=<cursor>&count=1&wait=<ms>ms`), matching the rest (headers, query, body, a predicate) here:
 * one request per new candidate, none while nothing happens. It polls, every `intervalMs`, only
 * while the session does not exist yet.
 */
export const waitForRequest = async (
  read: ReadJournal,
  matcher: RequestMatcher,
  options: WaitForOptions,
  where: string,
): Promise<JournalEntry> => {
  const timeoutMs = checkMs(options.timeoutMs ?? 5000, 'timeoutMs', 0, 600_000)
  const intervalMs = checkMs(options.intervalMs ?? 50, 'intervalMs', 10, 60_000)
  const deadline = Date.now() + timeoutMs
  const filters = serverQuery(matcher)
  const send = async (query: WaitQuery, waitMs: number): Promise<JournalPage | undefined> => {
    const limitMs = waitMs + pollGraceMs
    const timeout = AbortSignal.timeout(limitMs)
    try {
      return await read(query, options.signal ? AbortSignal.any([options.signal, timeout]) : timeout)
    } catch (error) {
      if (!timeout.aborted || options.signal?.aborted) throw error
      throw new Error(`petstore-mock did not answer GET /__admin/requests within ${limitMs} ms (${where}).`, {
        cause: error,
      })
    }
  }
  let cursor: number | undefined
  for (;;) {
    const remaining = Math.max(0, deadline - Date.now())
    if (cursor === undefined) {
      // The first read: everything recorded so far, newest first.
      const page = await send(filters, 0)
      if (page !== undefined) {
        const found = oldestMatch(page.requests, matcher)
        if (found) return found
        cursor = page.next
      }
    } else {
      const waitMs = Math.min(remaining, maxServerWaitMs)
      const page = await send({ ...filters, after: cursor, count: 1, wait: `${waitMs}ms` }, waitMs)
      if (page === undefined) cursor = undefined
      else {
        const found = firstMatch(page.requests, matcher)
        if (found) return found
        cursor = page.next
      }
    }
    if (deadline - Date.now() <= 0) break
    // No session yet: nothing to wait on in the mock, so read again after a pause.
    if (cursor === undefined) await sleep(Math.min(intervalMs, deadline - Date.now()), options.signal)
  }
  const received = (await send({ limit: shownEntries }, 0))?.requests ?? []
  throw new RequestNotReceivedError(notReceivedMessage(matcher, timeoutMs, where, received), received)
}
