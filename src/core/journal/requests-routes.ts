import { Hono } from 'hono'
import type { SessionAccess } from '../state/session-reader.js'
import { type JournalEntry, toEntry } from './journal-entry.js'
import { journalQuery } from './journal-query.js'
import type { JournalSlice } from './journal-slice.js'

/** GET /__admin/requests, newest first. */
export interface RequestList {
  requests: JournalEntry[]
}

/** What the journal's routes work on. */
export interface RequestsDeps {
  /** The session a route works on (X-Mock-Session). */
  session: SessionAccess<JournalSlice>
  /** The contract's operation ids, for journal queries. */
  operations: readonly string[]
}

/** The session's journal: GET /requests (filtered by operation, status, limit), DELETE /requests to empty it. */
export const requestsRoutes = (deps: RequestsDeps): Hono => {
  const { select, read } = deps.session
  const routes = new Hono()
  routes.get('/requests', select, async (c) =>
    c.json({
      requests: (await read(c).requests(journalQuery(c.req.query(), deps.operations))).map(toEntry),
    } satisfies RequestList),
  )
  routes.delete('/requests', select, async (c) => {
    await read(c).clearRequests()
    return c.body(null, 204)
  })
  return routes
}
