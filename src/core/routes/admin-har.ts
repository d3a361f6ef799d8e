import { Hono } from 'hono'
import type { AppEnv } from '../app-env.js'
import { toHar } from '../journal/har.js'
import type { AdminDeps } from './admin.js'
import { attachment } from './download-name.js'
import { journalQuery } from './journal-query.js'

/** GET /requests.har: the session's journal (same filters as GET /requests) as a HAR 1.2 download. */
export const harRoutes = (deps: Pick<AdminDeps, 'session' | 'operations' | 'version'>): Hono<AppEnv> =>
  new Hono<AppEnv>().get('/requests.har', deps.session, (c) => {
    const records = c.var.session.journal.list(journalQuery(c.req.query(), deps.operations))
    return c.json(toHar(records, { name: 'petstore-mock', version: deps.version }), 200, {
      'Content-Disposition': attachment(c.var.session.name, '.har'),
    })
  })
