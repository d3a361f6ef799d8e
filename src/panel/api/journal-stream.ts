import { MockAdminError } from '../../client/mock-admin-error.js'
import { type AdminClient, adminErrorText } from './admin-client.js'
import { SseParser } from './sse.js'
import type { TokenBroker } from './token-broker.js'
import type { JournalEntry } from '../types.js'

/** Where the live feed stands. */
export type StreamState =
  | { state: 'connecting' }
  | { state: 'live' }
  | { state: 'reconnecting'; reason: string }
  | { state: 'locked'; reason: string }

/** What {@link followJournal} needs. */
export interface FollowOptions {
  client: AdminClient
  tokens: TokenBroker
  signal: AbortSignal
  onState(state: StreamState): void
  /** Entries from the history (after each connect) or one per event. */
  onEntries(entries: JournalEntry[]): void
}

const maxBackoffMs = 10_000

const pause = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true })
  })

const untilAborted = (signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))

/** Reads events until the server closes the stream; adopts the server's `retry:`. */
const readEvents = async (
  body: ReadableStream<Uint8Array>,
  onEntry: (entry: JournalEntry) => void,
  onRetry: (ms: number) => void,
): Promise<void> => {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  const parser = new SseParser()
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    for (const event of parser.push(decoder.decode(read.value, { stream: true }))) {
      if (event.retry !== undefined) onRetry(event.retry)
      if (event.event !== 'request' || event.data === '') continue
      try {
        onEntry(JSON.parse(event.data) as JournalEntry)
      } catch {
        // A garbled event is skipped; the next history load fills the gap.
      }
    }
  }
}

/**
 * Follows a session's journal: subscribes to GET /__admin/requests/stream
 * with fetch() (EventSource cannot send Authorization), then loads the
 * history, so nothing recorded in between is missed (the rows dedup by id).
 * When the stream drops it reconnects after the server's `retry` (backing
 * off on repeated failures) and reloads the history; on a 401 nobody
 * answered it waits for a token. Runs until `signal` aborts.
 */
export const followJournal = async ({ client, tokens, signal, onState, onEntries }: FollowOptions): Promise<void> => {
  let retryMs = 1000
  let failures = 0
  onState({ state: 'connecting' })
  while (!signal.aborted) {
    let body: ReadableStream<Uint8Array> | null = null
    try {
      const stream = client.request({ method: 'GET', path: '/requests/stream', accept: 'text/event-stream', signal })
      // Loaded even when the stream fails, so the table is never empty for want of a live feed.
      const opened = await stream.then(
        (res) => ({ res }),
        (error: unknown) => ({ error }),
      )
      if ('res' in opened) body = opened.res.body
      onEntries(await client.call((mock) => mock.requests.list()))
      if ('error' in opened) throw opened.error
      if (!body) throw new Error('The live feed answered without a body.')
      onState({ state: 'live' })
      failures = 0
      await readEvents(
        body,
        (entry) => onEntries([entry]),
        (ms) => (retryMs = ms),
      )
      onState({ state: 'reconnecting', reason: 'The server closed the live feed.' })
    } catch (error) {
      if (signal.aborted) return
      const reason = adminErrorText(error)
      if (error instanceof MockAdminError && error.status === 401) {
        onState({ state: 'locked', reason })
        await Promise.race([tokens.nextToken(), untilAborted(signal)])
        continue
      }
      failures++
      onState({ state: 'reconnecting', reason })
    } finally {
      // A stream opened but never read (the history failed) must not stay open.
      if (body && !body.locked) void body.cancel().catch(() => {})
    }
    await pause(Math.min(retryMs * 2 ** Math.min(failures, 4), maxBackoffMs), signal)
  }
}
