import { ApiError } from '../../http/errors.js'
import { eventStreamLimits, type EventStreamLimits, journalEventStream } from './event-stream.js'
import type { JournalRecord } from '../journal.js'
import { JournalFeed, type JournalSource } from './journal-feed.js'
import { streamCaps, type StreamCaps } from './stream-caps.js'
import { LocalShares, quotaExceeded } from '../../tenants/local-shares.js'
import { Tenancy } from '../../tenants/tenancy.js'

/** What a source's feed is found by: its session's name, else the source itself (a bare journal). */
const keyOf = (source: JournalSource): unknown => source.name ?? source

/**
 * The open event streams of an app's journals: one {@link JournalFeed} per journal
 * (each record serialised once for all of a session's streams) and the caps
 * on how many are open: per session, and per tenant (its quota.streams; the
 * sessions of no tenant share what no tenant reserved of the server's cap). A
 * stream counts from when it is opened until it ends (closed by the client,
 * dropped as too slow, its session gone).
 */
export class StreamRegistry {
  // By session name where the source has one: a store that lives elsewhere (Redis) hands out a new
  // session object per request, and a session's streams must still share one feed and one cap.
  readonly #feeds = new Map<unknown, JournalFeed>()
  readonly #toData: (record: JournalRecord) => string
  readonly #caps: StreamCaps
  readonly #limits: EventStreamLimits
  readonly #shares: LocalShares

  constructor(
    toData: (record: JournalRecord) => string,
    caps: StreamCaps = streamCaps,
    limits: EventStreamLimits = eventStreamLimits,
    tenancy: Tenancy = new Tenancy(),
  ) {
    this.#toData = toData
    this.#caps = caps
    this.#limits = limits
    this.#shares = new LocalShares(tenancy, 'streams', caps.total)
  }

  /** Streams open now, every session together. */
  get open(): number {
    return this.#shares.usedTotal
  }

  /** Each tenant's open streams against its quota, and those of no tenant (tenant ''). */
  uses(): { tenant: string; used: number; limit: number }[] {
    return this.#shares.uses()
  }

  /**
   * Why a new stream of `journal` would be refused: 429 beyond the session's cap, 429
   * `quota_exceeded` beyond its tenant's quota, 503 beyond what the sessions of no tenant share.
   */
  refusal(journal: JournalSource): ApiError | undefined {
    const { perSession, total } = this.#caps
    if ((this.#feeds.get(keyOf(journal))?.readers ?? 0) >= perSession) {
      return new ApiError(
        429,
        `This session already has ${perSession} open event streams, the most it may have; close one first.`,
      )
    }
    const tenant = this.#shares.ownerOf(journal.name)
    const used = this.#shares.used(tenant)
    const limit = this.#shares.limit(tenant)
    if (used < limit) return undefined
    if (tenant) {
      return quotaExceeded(
        `Tenant ${tenant.name} has ${used} open event streams, its quota (quota.streams); close one first.`,
      )
    }
    if (limit === total) {
      return new ApiError(503, `The server already has ${total} open event streams, the most it serves; retry later.`)
    }
    return new ApiError(
      503,
      `The sessions of no tenant already have ${limit} open event streams, what the tenants leave of the server's ${total}; retry later.`,
    )
  }

  /** A new stream of `journal`'s records; throws the refusal beyond a cap. */
  stream(journal: JournalSource): ReadableStream<Uint8Array> {
    const refused = this.refusal(journal)
    if (refused) throw refused
    // Taken at once after the check (no turn between): it succeeds.
    const release = this.#shares.take(this.#shares.ownerOf(journal.name))!
    const key = keyOf(journal)
    let feed = this.#feeds.get(key)
    // A feed without readers is unsubscribed and forgotten: a session of the same name made since
    // (dropped and made again) gets a feed of its own.
    if (!feed || feed.readers === 0) {
      const made: JournalFeed = new JournalFeed(journal, this.#toData, () => {
        if (this.#feeds.get(key) === made) this.#feeds.delete(key)
      })
      this.#feeds.set(key, (feed = made))
    }
    return journalEventStream(feed, this.#limits, release)
  }
}
