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
    const headers = { 'Content-Disposition': attachment(c.var.session.name, '.har') }
    // A HEAD (hono runs this handler for it, then drops the body) is not worth a HAR.
    if (c.req.method === 'HEAD') return c.body(null, 200, { ...headers, 'Content-Type': 'application/json' })
    return c.json(toHar(records, { name: 'petstore-mock', version: deps.version }), 200, headers)
  })
