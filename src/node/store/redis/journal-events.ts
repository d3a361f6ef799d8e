import type { Redis } from 'ioredis'
import { decodeEntry } from './codec.js'
import type { JournalListener, JournalRecord } from '../../../core/journal/journal.js'

interface Channel {
  listeners: Set<JournalListener>
  /** Entries that arrived before the catch-up was read, in arrival order. */
  early: JournalRecord[] | undefined
  /** The largest id told to the listeners: nothing at or below it is told twice. */
  told: number
}

/**
 * The journal's event streams on one replica: one pub/sub connection for
 * every stream, one subscription per session with listeners. Each journal
 * entry is published by the script that stores it (any replica). A listener
 * hears of every entry recorded from its `subscribe` on, each once, in id
 * order, though Redis has the subscription only a little later (its
 * connection may still be opening, this process may not be scheduled): once
 * subscribed, the entries recorded since are read back from the journal,
 * those after the id counter as Redis read it and those answered after the
 * `subscribe` call (an entry's `time`: replicas' clocks are assumed in step).
 */
export class JournalEvents {
  readonly #client: Redis
  readonly #channels = new Map<string, Channel>()
  #subscriber: Redis | undefined

  constructor(client: Redis) {
    this.#client = client
  }

  /** Tells `listener` of each entry of the session at `base` (keys) published on `channel`; returns the unsubscribe. */
  subscribe(channel: string, base: string, listener: JournalListener): () => void {
    let state = this.#channels.get(channel)
    if (!state) {
      state = { listeners: new Set(), early: [], told: Number.MAX_SAFE_INTEGER }
      this.#channels.set(channel, state)
      this.#open(channel, base, state)
    }
    state.listeners.add(listener)
    return () => {
      const current = this.#channels.get(channel)
      if (current !== state || !state.listeners.delete(listener) || state.listeners.size > 0) return
      this.#channels.delete(channel)
      this.#subscriber?.unsubscribe(channel).catch(() => undefined)
    }
  }

  /** Ends every listener of `channel` (its session was dropped, or the server stops). */
  end(channel: string): void {
    const state = this.#channels.get(channel)
    if (!state) return
    this.#channels.delete(channel)
    this.#subscriber?.unsubscribe(channel).catch(() => undefined)
    for (const listener of state.listeners) listener.end()
  }

  close(): void {
    for (const channel of [...this.#channels.keys()]) this.end(channel)
    this.#subscriber?.disconnect()
  }

  #open(channel: string, base: string, state: Channel): void {
    const since = Date.now()
    const start = this.#client.get(`${base}jn`)
    const subscribed = this.#events().subscribe(channel)
    Promise.all([start, subscribed])
      .then(async ([last]) => {
        const from = Number(last ?? 0)
        const texts = await this.#client.lrange(`${base}j`, 0, -1)
        if (this.#channels.get(channel) !== state) return
        const missed = texts.map(decodeEntry).filter((entry) => entry.id > from || entry.time >= since)
        const early = state.early ?? []
        state.early = undefined
        state.told = 0
        for (const entry of [...missed, ...early].sort((a, b) => a.id - b.id)) this.#tell(state, entry)
        state.told = Math.max(state.told, from)
      })
      .catch(() => this.end(channel))
  }

  #tell(state: Channel, entry: JournalRecord): void {
    if (entry.id <= state.told) return
    state.told = entry.id
    for (const listener of state.listeners) listener.record(entry)
  }

  // One connection per replica for every event stream; ioredis subscribes again after a reconnect.
  #events(): Redis {
    if (this.#subscriber) return this.#subscriber
    const subscriber = this.#client.duplicate({ enableOfflineQueue: true, lazyConnect: false })
    subscriber.on('error', () => undefined)
    subscriber.on('message', (channel: string, text: string) => {
      if (text === '') return this.end(channel)
      const state = this.#channels.get(channel)
      if (!state) return
      const entry = decodeEntry(text)
      if (state.early) state.early.push(entry)
      else this.#tell(state, entry)
    })
    return (this.#subscriber = subscriber)
  }
}
