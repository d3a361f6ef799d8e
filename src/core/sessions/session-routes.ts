import { Hono } from 'hono'
import { ApiError, badRequest } from '../http/errors.js'
import type { SessionAccess } from '../state/session-reader.js'
import type { SessionState, SessionStore, SessionSummary } from './port.js'

/** GET /__admin/sessions, least recently used first. */
export interface SessionList {
  sessions: SessionSummary[]
}

/** What the session routes work on. */
export interface SessionDeps {
  sessions: SessionStore
  /** The session a route works on (X-Mock-Session). */
  session: SessionAccess<SessionState>
}

/** POST /reset (the session back to its start), GET /sessions, DELETE /sessions/:name. */
export const sessionRoutes = (deps: SessionDeps): Hono => {
  const { select, read } = deps.session
  const routes = new Hono()
  routes.post('/reset', select, async (c) => {
    await read(c).reset()
    return c.body(null, 204)
  })
  routes.get('/sessions', async (c) => {
    const sessions = await deps.sessions.sessions()
    return c.json({ sessions: await Promise.all(sessions.map((s) => s.summary())) } satisfies SessionList)
  })
  routes.delete('/sessions/:name', async (c) => {
    const name = c.req.param('name')
    if (name === 'default') throw badRequest('The default session cannot be deleted; use POST /__admin/reset.')
    if (!(await deps.sessions.dropSession(name))) throw new ApiError(404, `No session named ${name}.`)
    return c.body(null, 204)
  })
  return routes
}
