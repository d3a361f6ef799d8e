import { Hono, type MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.js'
import { EventStreams } from './event-streams.js'
import { toEntry } from './journal-entry.js'

/** What the event stream works on. */
export interface StreamDeps {
  /** Selects the session a route works on (X-Mock-Session). */
  session: MiddlewareHandler<AppEnv>
}

const headers = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  // Proxies that buffer answers (nginx) would hold the events back.
  'X-Accel-Buffering': 'no',
}

/** The event streams of an app's journals, each entry as its client view's JSON. */
export const journalStreams = (): EventStreams => new EventStreams((record) => JSON.stringify(toEntry(record)))

/**
 * GET /requests/stream: the session's journal as server-sent events, one per
 * new entry, within the caps of {@link EventStreams}. A HEAD gets the same
 * status and headers and never subscribes: hono runs the GET handler for it
 * and drops the body unread, without cancelling it.
 */
export const streamRoutes = (deps: StreamDeps, streams = journalStreams()): Hono<AppEnv> =>
  new Hono<AppEnv>().get('/requests/stream', deps.session, (c) => {
    const session = c.var.session
    if (c.req.method === 'HEAD') {
      const refused = streams.refusal(session)
      if (refused) throw refused
      return c.body(null, 200, headers)
    }
    return c.body(streams.stream(session), 200, headers)
  })
