import type { MaybePromise } from '../async/maybe-promise.js'
import type { JournalRecord } from './journal.js'
import type { JournalSlice } from './journal-slice.js'

/**
 * The records `read` gives once they are at least `count`, or undefined when `ms` pass first (or
 * the session is dropped). Read now, then again after each entry the session records (on any
 * replica: the journal's subscribers hear of them all), one read at a time: the wait costs a read
 * per burst of new entries, never a poll. Bounded by `ms` (at most a minute, journal-query.ts); a
 * read under way when it ends decides, and one is made if none is (`wait=0s` asks: now?). Ended
 * (undefined) when `signal` aborts: the client went, and the wait holds nothing for it.
 */
export const waitForRecords = (
  journal: Pick<JournalSlice, 'subscribe'>,
  read: () => MaybePromise<JournalRecord[]>,
  count: number,
  ms: number,
  signal?: AbortSignal,
): Promise<JournalRecord[] | undefined> =>
  new Promise((resolve, reject) => {
    let done = false
    let reading = false
    let again = false
    let expired = false
    let unsubscribe = (): void => {}
    let timer: ReturnType<typeof setTimeout> | undefined
    const gone = (): void => void (settle() && resolve(undefined))
    const settle = (): boolean => {
      if (done) return false
      done = true
      clearTimeout(timer)
      unsubscribe()
      signal?.removeEventListener('abort', gone)
      return true
    }
    const check = (): void => {
      if (done) return
      if (reading) return void (again = true)
      reading = true
      Promise.resolve()
        .then(read)
        .then(
          (records) => {
            reading = false
            if (records.length >= count) {
              if (settle()) resolve(records)
            } else if (expired) {
              if (settle()) resolve(undefined)
            } else if (again) {
              again = false
              check()
            }
          },
          (error: unknown) => {
            if (settle()) reject(error)
          },
        )
    }
    if (signal?.aborted) return gone()
    signal?.addEventListener('abort', gone)
    unsubscribe = journal.subscribe({ record: check, end: gone })
    timer = setTimeout(() => {
      expired = true
      if (!reading) check()
    }, ms)
    check()
  })
