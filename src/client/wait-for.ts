import type { JournalEntry, JournalQuery } from '../types/index.js'
import { describeEntry, describeMatcher, matches, type RequestMatcher, serverQuery } from './request-filter.js'

/** Options of `requests.waitFor`. */
export interface WaitForOptions {
  /** How long to wait, ms: 0 to 600000, default 5000. */
  timeoutMs?: number
  /** The pause between two reads of the journal, ms: 10 to 60000, default 50. */
  intervalMs?: number
  /** Stops waiting; the promise rejects with the signal's reason. */
  signal?: AbortSignal
}

/** How the journal is read: a filtered list, newest first. */
export type ListRequests = (query: JournalQuery, signal?: AbortSignal) => Promise<JournalEntry[]>

/** Entries listed when no request matched. */
const shownEntries = 20

/** Time a read of the journal may take beyond the deadline before waitFor gives up on the mock. */
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

/**
 * Reads the journal until a request matches, at most every `intervalMs`
 * until `timeoutMs` has passed; resolves with the oldest match, or rejects
 * with {@link RequestNotReceivedError} listing what was received.
 */
export const waitForRequest = async (
  list: ListRequests,
  matcher: RequestMatcher,
  options: WaitForOptions,
  where: string,
): Promise<JournalEntry> => {
  const timeoutMs = checkMs(options.timeoutMs ?? 5000, 'timeoutMs', 0, 600_000)
  const intervalMs = checkMs(options.intervalMs ?? 50, 'intervalMs', 10, 60_000)
  const deadline = Date.now() + timeoutMs
  const query = serverQuery(matcher)
  const read = async (q: JournalQuery): Promise<JournalEntry[]> => {
    const limitMs = Math.max(0, deadline - Date.now()) + pollGraceMs
    const timeout = AbortSignal.timeout(limitMs)
    try {
      return await list(q, options.signal ? AbortSignal.any([options.signal, timeout]) : timeout)
    } catch (error) {
      if (!timeout.aborted || options.signal?.aborted) throw error
      throw new Error(`petstore-mock did not answer GET /__admin/requests within ${limitMs} ms (${where}).`, {
        cause: error,
      })
    }
  }
  for (;;) {
    const found = oldestMatch(await read(query), matcher)
    if (found) return found
    const remaining = deadline - Date.now()
    if (remaining <= 0) break
    await sleep(Math.min(intervalMs, remaining), options.signal)
  }
  const received = await read({ limit: shownEntries })
  throw new RequestNotReceivedError(notReceivedMessage(matcher, timeoutMs, where, received), received)
}
