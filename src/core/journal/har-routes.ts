import { Hono } from '../http/hono-app.js'
import { attachment } from './download-name.js'
import type { SessionAccess } from '../http/request/session-reader.js'
import { journalQuery } from './journal-query.js'
import { reasonPhrases } from '../http/http-status.js'
import { maxBodyChars, utf8Length } from './journal.js'
import { headerList, headerRecord } from '../http/header-list.js'
import { queryOf, recordedTraceId } from './journal-entry.js'
import type { HarParts } from './har.js'
import type { JournalSlice } from './journal-slice.js'

/** What the HAR export works on. */
export interface HarDeps {
  /** The session a route works on (X-Mock-Session). */
  session: SessionAccess<JournalSlice>
  /** The contract's operation ids, for journal queries. */
  operations: readonly string[]
  /** The mock's version, named in what it writes. */
  version: string
}

/** GET /requests.har: the session's journal (same filters as GET /requests) as a HAR 1.2 download. */
// Passed to har.ts, so that a browser bundle keeps them in the chunks it loads at start.
const harParts: HarParts = {
  reasonPhrases,
  maxBodyChars,
  utf8Length,
  headerList,
  headerRecord,
  queryOf,
  recordedTraceId,
}

export const harRoutes = (deps: HarDeps): Hono => {
  const { select, read } = deps.session
  return new Hono().get('/requests.har', select, async (c) => {
    const journal = read(c)
    const headers = { 'Content-Disposition': attachment(journal.name, '.har') }
    // A HEAD (hono runs this handler for it, then drops the body) is not worth a HAR.
    if (c.req.method === 'HEAD') return c.body(null, 200, { ...headers, 'Content-Type': 'application/json' })
    const query = journalQuery(c.req.query(), deps.operations)
    // Loaded on first use: its own chunk in a browser bundle (msw's budget).
    const [records, { toHar }] = await Promise.all([journal.requests(query), import('./har.js')])
    return c.json(toHar(records, { name: 'petstore-mock', version: deps.version }, harParts), 200, headers)
  })
}
