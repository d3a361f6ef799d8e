import type { JournalListener, JournalRecord } from '../journal.js'

/** What a feed reads: a journal, or a session of the state port (sessions/port.ts). */
export interface JournalSource {
  /** The session's name, when the source is a session: its feed is found by it (see stream-registry.ts). */
  readonly name?: string
  subscribe(listener: JournalListener): () => void
}

/** A reader of a {@link JournalFeed}: given the bytes of each new record's event. */
export interface FeedReader {
  chunk(bytes: Uint8Array): void
  end(): void
}

const encoder = new TextEncoder()

/**
 * One journal's new records as server-sent events, each serialised and
 * encoded once, whatever the number of readers: every reader is handed the
 * same bytes (shared, never copied), so a thousand open streams cost one
 * serialisation per record, and what slow readers hold is the same memory.
 * Subscribed to the journal only while it has readers.
 */
export class JournalFeed {
  readonly #journal: JournalSource
  readonly #toData: (record: JournalRecord) => string
  readonly #readers = new Set<FeedReader>()
  #unsubscribe: (() => void) | undefined

  readonly #onIdle: () => void

  /** `onIdle`: called whenever the last reader leaves (the feed is then unsubscribed). */
  constructor(journal: JournalSource, toData: (record: JournalRecord) => string, onIdle: () => void = () => {}) {
    this.#journal = journal
    this.#toData = toData
    this.#onIdle = onIdle
  }

  /** Readers now. */
  get readers(): number {
    return this.#readers.size
  }

  /** Hands `reader` every new record's event until the returned function is called. */
  join(reader: FeedReader): () => void {
    this.#readers.add(reader)
    this.#unsubscribe ??= this.#journal.subscribe({
      record: (record) => {
        const bytes = encoder.encode(`id: ${record.id}\nevent: request\ndata: ${this.#toData(record)}\n\n`)
        for (const each of this.#readers) each.chunk(bytes)
      },
      end: () => {
        const readers = [...this.#readers]
        this.#leaveAll()
        for (const each of readers) each.end()
      },
    })
    return () => {
      if (this.#readers.delete(reader) && this.#readers.size === 0) this.#leaveAll()
    }
  }

  #leaveAll(): void {
    this.#readers.clear()
    this.#unsubscribe?.()
    this.#unsubscribe = undefined
    this.#onIdle()
  }
}
