import { Hono } from '../http/hono-app.js'
import type { components } from '../../generated/admin-types.js'
import { ApiError } from '../http/errors.js'
import type { SessionAccess } from '../http/request/session-reader.js'
import type { JournalQuery, JournalRecord } from './journal.js'
import { type JournalEntry, toEntry } from './journal-entry.js'
import { journalQuery, journalWait } from './journal-query.js'
import type { JournalSlice } from './journal-slice.js'
import { waitForRecords } from './journal-wait.js'
import { heldRefusal, type LocalShares, type Release } from '../tenants/local-shares.js'

/**
 * GET /__admin/requests: the page (newest first; with `after`, oldest first), the cursor `next` and
 * `dropped`; admin-openapi.yaml's `RequestList`, generated.
 */
export type RequestList = components['schemas']['RequestList']

/** What the journal's routes work on. */
export interface RequestsDeps {
  /** The session a route works on (X-Mock-Session). */
  session: SessionAccess<JournalSlice>
  /** The contract's operation ids, for journal queries. */
  operations: readonly string[]
  /** The app's held requests: a tenant's journal waits count against its quota.held (those of no tenant are not counted). */
  held?: LocalShares
}

/**
 * The page `query` asks for: newest first and at most `limit`; with a cursor (`after`), the
 * oldest entries after it first, so that reading page after page misses none.
 */
const pageOf = (records: JournalRecord[], query: JournalQuery): JournalRecord[] => {
  if (query.after === undefined) return query.limit === undefined ? records : records.slice(0, query.limit)
  const ascending = records.reverse()
  return query.limit === undefined ? ascending : ascending.slice(0, query.limit)
}

/**
 * The session's journal: GET /requests (filtered by operation, status, method, path, time; paged by
 * the cursor `after` and `limit`; with `wait`, answered once `count` entries pass the filters, or
 * 408), DELETE /requests to empty it.
 */
export const requestsRoutes = (deps: RequestsDeps): Hono => {
  const { select, read } = deps.session
  const routes = new Hono()
  routes.get('/requests', select, async (c) => {
    const params = c.req.query()
    const query = journalQuery(params, deps.operations)
    const wait = journalWait(params)
    const journal = read(c)
    // The store fills a limit newest first: a page after a cursor needs every entry after it.
    const { limit, ...filters } = query
    const stored = query.after === undefined && wait === undefined ? query : filters
    let records: JournalRecord[]
    if (wait === undefined) records = await journal.requests(stored)
    else {
      // A tenant's wait holds a place among its held requests until it ends.
      const { held } = deps
      const tenant = held?.ownerOf(journal.name)
      let place: Release | undefined
      if (held && tenant) {
        place = held.take(tenant)
        if (!place) throw heldRefusal(tenant, held)
      }
      const read = () => journal.requests(stored)
      const met = await waitForRecords(journal, read, wait.count, wait.ms, c.req.raw.signal).finally(place)
      if (met === undefined) {
        throw new ApiError(
          408,
          `Fewer than ${wait.count} recorded request(s) matched within ${c.req.query('wait')}; the journal was read again after each new entry.`,
        )
      }
      records = met
    }
    const page = pageOf(records, query)
    const greatest = page.reduce((max, record) => (record.id > max ? record.id : max), query.after ?? 0)
    return c.json({
      requests: page.map(toEntry),
      next: greatest,
      dropped: await journal.requestsDropped(),
    } satisfies RequestList)
  })
  routes.delete('/requests', select, async (c) => {
    await read(c).clearRequests()
    return c.body(null, 204)
  })
  return routes
}
