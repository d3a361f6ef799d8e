import { Hono } from '../../http/hono-app.js'
import type { SessionAccess } from '../../http/request/session-reader.js'
import type { JournalSlice } from '../journal-slice.js'
import { StreamRegistry } from './stream-registry.js'
import { streamCaps } from './stream-caps.js'
import { eventStreamLimits } from './event-stream.js'
import type { BudgetPort } from '../../budget/budget-port.js'
import { toEntry } from '../journal-entry.js'
import type { Tenancy } from '../../tenants/tenancy.js'

/** What the event stream works on. */
export interface StreamDeps {
  /** The session a route works on (X-Mock-Session). */
  session: SessionAccess<JournalSlice>
  /** The memory budget the streams' backlogs are charged to. */
  budget?: BudgetPort
}

const headers = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  // Proxies that buffer answers (nginx) would hold the events back.
  'X-Accel-Buffering': 'no',
}

/** The event streams of an app's journals, each entry as its client view's JSON, shared out by `tenancy`. */
export const journalStreams = (budget?: BudgetPort, tenancy?: Tenancy): StreamRegistry =>
  new StreamRegistry(
    (record) => JSON.stringify(toEntry(record)),
    streamCaps,
    { ...eventStreamLimits, ...(budget && { budget }) },
    tenancy,
  )

/**
 * GET /requests/stream: the session's journal as server-sent events, one per
 * new entry, within the caps of {@link StreamRegistry}. A HEAD gets the same
 * status and headers and never subscribes: hono runs the GET handler for it
 * and drops the body unread, without cancelling it.
 */
export const streamRoutes = (deps: StreamDeps, streams = journalStreams(deps.budget)): Hono =>
  new Hono().get('/requests/stream', deps.session.select, (c) => {
    const session = deps.session.read(c)
    if (c.req.method === 'HEAD') {
      const refused = streams.refusal(session)
      if (refused) throw refused
      return c.body(null, 200, headers)
    }
    return c.body(streams.stream(session), 200, headers)
  })
