import type { BudgetPort } from '../../budget/budget-port.js'
import type { JournalFeed } from './journal-feed.js'

/** How far a reader may fall behind before it is dropped, and how often an idle stream says it is alive. */
export interface EventStreamLimits {
  /** Most chunks (events, comments) queued for a reader. */
  maxQueued: number
  /** Most bytes queued for a reader (the events' bytes are shared by every reader of a session). */
  maxBytes: number
  keepAliveMs: number
  /** The memory budget backlogs are charged to: a reader whose backlog it refuses is dropped like a slow one. */
  budget?: Pick<BudgetPort, 'charge' | 'release'>
}

/** The limits of GET /__admin/requests/stream. */
export const eventStreamLimits: EventStreamLimits = { maxQueued: 256, maxBytes: 1024 * 1024, keepAliveMs: 15_000 }

const encoder = new TextEncoder()
const retry = encoder.encode('retry: 1000\n\n')
const keepAliveComment = encoder.encode(': keep-alive\n\n')

/**
 * A server-sent event stream of a journal's new records (`retry`, then one
 * `request` event per record, a keep-alive comment when idle), read from the
 * journal's {@link JournalFeed}. A web ReadableStream pulled by the host as the
 * socket drains: what the reader has not taken waits in a queue, and a reader
 * that lets it grow beyond the limits is dropped (the stream ends, the queue
 * is let go) rather than buffered without bound. Cancelling the stream (the
 * client went away) leaves the feed; `onEnd` is called once, however it ends.
 */
export const journalEventStream = (
  feed: JournalFeed,
  limits: EventStreamLimits = eventStreamLimits,
  onEnd: () => void = () => {},
): ReadableStream<Uint8Array> => {
  const queue: Uint8Array[] = []
  let queuedBytes = 0
  let ended = false
  let wake: (() => void) | undefined
  let leave = (): void => {}
  let keepAlive: ReturnType<typeof setInterval> | undefined

  const budget = limits.budget
  const end = (): void => {
    if (ended) return
    ended = true
    budget?.release('streams', queuedBytes)
    queue.length = 0
    queuedBytes = 0
    leave()
    clearInterval(keepAlive)
    onEnd()
    wake?.()
  }
  const push = (chunk: Uint8Array): void => {
    if (ended) return
    if (
      queue.length >= limits.maxQueued ||
      queuedBytes + chunk.byteLength > limits.maxBytes ||
      budget?.charge('streams', chunk.byteLength)
    ) {
      // Too slow, or no room left: drop the reader, and with it what it has not taken.
      return end()
    }
    queue.push(chunk)
    queuedBytes += chunk.byteLength
    wake?.()
  }

  return new ReadableStream<Uint8Array>(
    {
      start() {
        push(retry)
        leave = feed.join({ chunk: push, end })
        keepAlive = setInterval(() => push(keepAliveComment), limits.keepAliveMs)
        // Where timers can be unref'd (Node), a forgotten stream does not keep the process alive.
        ;(keepAlive as { unref?: () => void }).unref?.()
      },
      async pull(controller) {
        while (queue.length === 0 && !ended) await new Promise<void>((resolve) => (wake = resolve))
        wake = undefined
        const chunk = queue.shift()
        if (chunk === undefined) return controller.close()
        queuedBytes -= chunk.byteLength
        budget?.release('streams', chunk.byteLength)
        controller.enqueue(chunk)
      },
      cancel: end,
    },
    // Nothing is pulled ahead of the reader: the queue above is all there is.
    { highWaterMark: 0 },
  )
}
