import { Hono, type MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.js'
import { journalEventStream } from '../journal/event-stream.js'
import { toEntry } from '../journal/journal-entry.js'

/** What the event stream works on. */
export interface StreamDeps {
  /** Selects the session a route works on (X-Mock-Session). */
  session: MiddlewareHandler<AppEnv>
}

/** GET /requests/stream: the session's journal as server-sent events, one per new entry. */
export const streamRoutes = (deps: StreamDeps): Hono<AppEnv> =>
  new Hono<AppEnv>().get('/requests/stream', deps.session, (c) =>
    c.body(
      journalEventStream(c.var.session, (record) => JSON.stringify(toEntry(record))),
      200,
      {
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-cache',
        // Proxies that buffer answers (nginx) would hold the events back.
        'X-Accel-Buffering': 'no',
      },
    ),
  )
