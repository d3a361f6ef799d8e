import type { JournalCharge, JournalOwner } from './budget-port.js'

interface Held extends JournalCharge {
  owner: JournalOwner
  live: boolean
}

/**
 * The journal's share of the memory budget, across every session: entries
 * in the order they were charged, so that room is made by dropping the
 * oldest entries wherever they are. A journal drops only its own oldest
 * entry (ring, clear, close), so the oldest live charge of an owner is always
 * that owner's oldest entry.
 */
export class JournalShare {
  readonly shareBytes: number
  #used = 0
  #live = 0
  #queue: Held[] = []
  #head = 0

  constructor(shareBytes: number) {
    this.shareBytes = shareBytes
  }

  get usedBytes(): number {
    return this.#used
  }

  /** Entries charged and not yet released. */
  get entries(): number {
    return this.#live
  }

  /** Takes `bytes` for an entry of `owner`, dropping the oldest entries of any owner first to make room. */
  charge(owner: JournalOwner, bytes: number): JournalCharge {
    while (this.#used + bytes > this.shareBytes && this.#live > 0) {
      const oldest = this.#queue[this.#head]!
      if (oldest.live) oldest.owner.dropOldest()
      // dropOldest released it; an owner that kept it anyway is let go of here.
      if (oldest.live) this.release(oldest)
      this.#head++
    }
    const held: Held = { bytes, owner, live: true }
    this.#queue.push(held)
    this.#used += bytes
    this.#live++
    this.#compact()
    return held
  }

  release(charge: JournalCharge): void {
    const held = charge as Held
    if (!held.live) return
    held.live = false
    this.#used -= held.bytes
    this.#live--
    this.#compact()
  }

  // Released charges stay queued until passed; the queue is rebuilt once they outnumber the live ones.
  #compact(): void {
    const length = this.#queue.length - this.#head
    if (length < 1024 || length < 2 * this.#live) return
    this.#queue = this.#queue.slice(this.#head).filter((held) => held.live)
    this.#head = 0
  }
}
