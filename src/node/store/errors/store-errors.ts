/** How a call to the store failed: no answer in time, no connection, or an error reply. */
export type StoreErrorKind = 'timeout' | 'unreachable' | 'refused'

/**
 * Failed calls to the store (Redis) since start-up, by kind, for the metrics: counted where the
 * store turns a failure into its answer (redis-store.ts), read at each scrape. One per process,
 * like the store it counts for.
 */
export const storeErrors: Record<StoreErrorKind, number> = { timeout: 0, unreachable: 0, refused: 0 }

/** Counts one failed call. */
export const countStoreError = (kind: StoreErrorKind): void => {
  storeErrors[kind]++
}

/**
 * Journal entries this replica could not write because the store refused writes at its
 * `maxmemory` (issue 41: the request is answered all the same), by the tenant of the session
 * (`''`: none). Per replica, unlike the journal's own drops, which the store counts fleet-wide.
 */
export const journalStoreFullDrops = new Map<string, number>()

/** Counts one journal entry dropped for a full store. */
export const countJournalStoreFullDrop = (tenant: string): void => {
  journalStoreFullDrops.set(tenant, (journalStoreFullDrops.get(tenant) ?? 0) + 1)
}
