import { Hono } from 'hono'
import type { AppEnv } from '../app-env.js'
import { EventStreams } from '../journal/event-streams.js'
import { toEntry } from '../journal/journal-entry.js'
import type { AdminDeps } from './admin.js'

const headers = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  // Proxies that buffer answers (nginx) would hold the events back.
  'X-Accel-Buffering': 'no',
}

/**
 * GET /requests/stream: the session's journal as server-sent events, one per
 * new entry, within the caps of {@link EventStreams}. A HEAD gets the same
 * status and headers and never subscribes: hono runs the GET handler for it
 * and drops the body unread, without cancelling it.
 */
export const streamRoutes = (
  deps: Pick<AdminDeps, 'session'>,
  streams = new EventStreams((record) => JSON.stringify(toEntry(record))),
): Hono<AppEnv> =>
  new Hono<AppEnv>().get('/requests/stream', deps.session, (c) => {
    const { journal } = c.var.session
    if (c.req.method === 'HEAD') {
      const refused = streams.refusal(journal)
      if (refused) throw refused
      return c.body(null, 200, headers)
    }
    return c.body(streams.stream(journal), 200, headers)
  })
