import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import type { AdminClient } from './admin-client.js'
import { followJournal, type StreamState } from './journal-stream.js'
import { mergeEntries } from '../model/rows.js'
import type { TokenBroker } from './token-broker.js'
import type { JournalEntry } from '../types.js'

/** The live rows of a session's journal and the state of its feed. */
export interface LiveJournal {
  rows: readonly JournalEntry[]
  stream: StreamState
  /** Forgets the rows shown (after the journal was cleared or the session reset). */
  clear(): void
}

/**
 * Follows the journal of `client`'s session while mounted; `onEntries` hears
 * of every batch that arrives (to refresh what the requests changed).
 */
export const useJournal = (
  client: AdminClient,
  tokens: TokenBroker,
  onEntries: (entries: readonly JournalEntry[]) => void,
): LiveJournal => {
  const [rows, setRows] = useState<readonly JournalEntry[]>([])
  const [stream, setStream] = useState<StreamState>({ state: 'connecting' })
  const listener = useRef(onEntries)
  listener.current = onEntries
  useEffect(() => {
    setRows([])
    const controller = new AbortController()
    void followJournal({
      client,
      tokens,
      signal: controller.signal,
      onState: setStream,
      onEntries: (entries) => {
        if (controller.signal.aborted) return
        setRows((current) => mergeEntries(current, entries))
        listener.current(entries)
      },
    })
    return () => controller.abort()
  }, [client, tokens])
  const clear = useCallback(() => setRows([]), [])
  return { rows, stream, clear }
}
