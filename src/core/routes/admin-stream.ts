import { Hono } from 'hono'
import type { AppEnv } from '../app-env.js'
import { journalEventStream } from '../journal/event-stream.js'
import { toEntry } from '../journal/journal-entry.js'
import type { AdminDeps } from './admin.js'

/** GET /requests/stream: the session's journal as server-sent events, one per new entry. */
export const streamRoutes = (deps: Pick<AdminDeps, 'session'>): Hono<AppEnv> =>
  new Hono<AppEnv>().get('/requests/stream', deps.session, (c) =>
    c.body(
      journalEventStream(c.var.session.journal, (record) => JSON.stringify(toEntry(record))),
      200,
      {
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-cache',
        // Proxies that buffer answers (nginx) would hold the events back.
        'X-Accel-Buffering': 'no',
      },
    ),
  )
