import { ApiError } from '../http/errors.js'
import { eventStreamLimits, type EventStreamLimits, journalEventStream } from './event-stream.js'
import type { JournalRecord } from './journal.js'
import { JournalFeed, type JournalSource } from './journal-feed.js'

/** Most event streams open at once. */
export interface StreamCaps {
  /** On one session. */
  perSession: number
  /** On the whole server, every session together. */
  total: number
}

/** The caps of GET /__admin/requests/stream: the panel opens one stream per tab. */
export const streamCaps: StreamCaps = { perSession: 10, total: 100 }

/**
 * The event streams of an app's journals: one {@link JournalFeed} per journal
 * (each record serialised once for all of a session's streams) and the caps
 * on how many are open. A stream counts from when it is opened until it ends
 * (closed by the client, dropped as too slow, its session gone).
 */
export class EventStreams {
  readonly #feeds = new WeakMap<JournalSource, JournalFeed>()
  readonly #toData: (record: JournalRecord) => string
  readonly #caps: StreamCaps
  readonly #limits: EventStreamLimits
  #open = 0

  constructor(
    toData: (record: JournalRecord) => string,
    caps: StreamCaps = streamCaps,
    limits: EventStreamLimits = eventStreamLimits,
  ) {
    this.#toData = toData
    this.#caps = caps
    this.#limits = limits
  }

  /** Streams open now, every session together. */
  get open(): number {
    return this.#open
  }

  /** Why a new stream of `journal` would be refused: 429 beyond the session's cap, 503 beyond the server's. */
  refusal(journal: JournalSource): ApiError | undefined {
    const { perSession, total } = this.#caps
    if ((this.#feeds.get(journal)?.readers ?? 0) >= perSession) {
      return new ApiError(
        429,
        `This session already has ${perSession} open event streams, the most it may have; close one first.`,
      )
    }
    if (this.#open >= total) {
      return new ApiError(503, `The server already has ${total} open event streams, the most it serves; retry later.`)
    }
    return undefined
  }

  /** A new stream of `journal`'s records; throws the refusal beyond a cap. */
  stream(journal: JournalSource): ReadableStream<Uint8Array> {
    const refused = this.refusal(journal)
    if (refused) throw refused
    let feed = this.#feeds.get(journal)
    if (!feed) this.#feeds.set(journal, (feed = new JournalFeed(journal, this.#toData)))
    this.#open++
    return journalEventStream(feed, this.#limits, () => this.#open--)
  }
}
