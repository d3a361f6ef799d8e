import { Hono, type MiddlewareHandler } from 'hono'
import { toHar } from './har.js'
import { attachment } from '../http/download-name.js'
import { journalQuery } from './journal-query.js'

/** What the HAR export works on. */
export interface HarDeps {
  /** Selects the session a route works on (X-Mock-Session). */
  session: MiddlewareHandler
  /** The contract's operation ids, for journal queries. */
  operations: readonly string[]
  /** The mock's version, named in what it writes. */
  version: string
}

/** GET /requests.har: the session's journal (same filters as GET /requests) as a HAR 1.2 download. */
export const harRoutes = (deps: HarDeps): Hono =>
  new Hono().get('/requests.har', deps.session, async (c) => {
    const headers = { 'Content-Disposition': attachment(c.var.session.name, '.har') }
    // A HEAD (hono runs this handler for it, then drops the body) is not worth a HAR.
    if (c.req.method === 'HEAD') return c.body(null, 200, { ...headers, 'Content-Type': 'application/json' })
    const records = await c.var.session.requests(journalQuery(c.req.query(), deps.operations))
    return c.json(toHar(records, { name: 'petstore-mock', version: deps.version }), 200, headers)
  })
