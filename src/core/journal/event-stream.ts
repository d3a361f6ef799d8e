import type { Journal, JournalRecord } from './journal.js'

/** How far a reader may fall behind before it is dropped, and how often an idle stream says it is alive. */
export interface EventStreamLimits {
  /** Most chunks (events, comments) queued for a reader. */
  maxQueued: number
  /** Most bytes queued for a reader. */
  maxBytes: number
  keepAliveMs: number
}

/** The limits of GET /__admin/requests/stream. */
export const eventStreamLimits: EventStreamLimits = { maxQueued: 256, maxBytes: 1024 * 1024, keepAliveMs: 15_000 }

const encoder = new TextEncoder()

/**
 * A server-sent event stream of a journal's new records (`retry`, then one
 * `request` event per record, a keep-alive comment when idle). A web
 * ReadableStream pulled by the host as the socket drains: what the reader has
 * not taken waits in a queue, and a reader that lets it grow beyond the
 * limits is dropped (the stream ends) rather than buffered without bound.
 * Cancelling the stream (the client went away) unsubscribes.
 */
export const journalEventStream = (
  journal: Pick<Journal, 'subscribe'>,
  toData: (record: JournalRecord) => string,
  limits: EventStreamLimits = eventStreamLimits,
): ReadableStream<Uint8Array> => {
  const queue: Uint8Array[] = []
  let queuedBytes = 0
  let ended = false
  let wake: (() => void) | undefined
  let unsubscribe = (): void => {}
  let keepAlive: ReturnType<typeof setInterval> | undefined

  const end = (): void => {
    if (ended) return
    ended = true
    unsubscribe()
    clearInterval(keepAlive)
    wake?.()
  }
  const push = (text: string): void => {
    if (ended) return
    const chunk = encoder.encode(text)
    if (queue.length >= limits.maxQueued || queuedBytes + chunk.byteLength > limits.maxBytes) {
      // Too slow: drop the reader, and with it what it has not taken.
      queue.length = 0
      queuedBytes = 0
      return end()
    }
    queue.push(chunk)
    queuedBytes += chunk.byteLength
    wake?.()
  }

  return new ReadableStream<Uint8Array>(
    {
      start() {
        push('retry: 1000\n\n')
        unsubscribe = journal.subscribe({
          record: (record) => push(`id: ${record.id}\nevent: request\ndata: ${toData(record)}\n\n`),
          end,
        })
        keepAlive = setInterval(() => push(': keep-alive\n\n'), limits.keepAliveMs)
        // Where timers can be unref'd (Node), a forgotten stream does not keep the process alive.
        ;(keepAlive as { unref?: () => void }).unref?.()
      },
      async pull(controller) {
        while (queue.length === 0 && !ended) await new Promise<void>((resolve) => (wake = resolve))
        wake = undefined
        const chunk = queue.shift()
        if (chunk === undefined) return controller.close()
        queuedBytes -= chunk.byteLength
        controller.enqueue(chunk)
      },
      cancel: end,
    },
    // Nothing is pulled ahead of the reader: the queue above is all there is.
    { highWaterMark: 0 },
  )
}
