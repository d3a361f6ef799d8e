import { Hono } from '../http/hono-app.js'
import { ApiError, badRequest } from '../http/errors.js'
import type { SessionAccess } from '../http/request/session-reader.js'
import { isSessionName, pathNameRule } from '../http/request/session-name.js'
import { sessionScopeOf } from '../http/request/session-scope.js'
import { isOutcome, sessionCreatedHeader, sessionOf } from './lifecycle.js'
import type { SessionState, SessionStore, SessionSummary } from './port.js'

/** GET /__admin/sessions, least recently used first. */
export interface SessionList {
  sessions: SessionSummary[]
  /** Sessions dropped for being idle past --session-ttl: a request naming one answers 410 until it is created again. */
  expired: ExpiredSession[]
}

/** A tombstone as listed: the session's name, when it was dropped (ISO 8601) and why. */
export interface ExpiredSession {
  name: string
  expiredAt: string
  reason: 'idle'
}

/** What the session routes work on. */
export interface SessionDeps {
  sessions: SessionStore
  /** The session a route works on (X-Mock-Session). */
  session: SessionAccess<SessionState>
}

const namedSession = (name: string): string => {
  if (!isSessionName(name)) throw badRequest(`A session name is ${pathNameRule} (got ${JSON.stringify(name)}).`)
  return name
}

/** POST /reset (the session back to its start), GET /sessions, POST and DELETE /sessions/:name. */

export const sessionRoutes = (deps: SessionDeps): Hono => {
  const { select, read } = deps.session
  const routes = new Hono()
  routes.post('/reset', select, async (c) => {
    await read(c).reset()
    return c.body(null, 204)
  })
  routes.get('/sessions', async (c) => {
    const [all, allTombstones] = await Promise.all([deps.sessions.sessions(), deps.sessions.tombstones()])
    // A scoped admin token (a team's, a tenant's) sees the sessions of its scope only, expired ones included.
    const covers = sessionScopeOf(c)
    const sessions = covers ? all.filter((s) => covers(s.name)) : all
    const tombstones = covers ? allTombstones.filter((t) => covers(t.name)) : allTombstones
    return c.json({
      sessions: await Promise.all(sessions.map((s) => s.summary())),
      expired: tombstones.map((t) => ({ name: t.name, expiredAt: new Date(t.at).toISOString(), reason: t.reason })),
    } satisfies SessionList)
  })
  // Creates a session explicitly (over its tombstone too): 201 when made, 200 when it existed.
  routes.post('/sessions/:name', async (c) => {
    const name = namedSession(c.req.param('name'))
    const selection = await deps.sessions.select(name, 'revive')
    const made = isOutcome(selection) && selection.outcome === 'created'
    const summary = await sessionOf(selection).summary()
    return made ? c.json(summary, 201, { [sessionCreatedHeader]: 'true' }) : c.json(summary, 200)
  })
  routes.delete('/sessions/:name', async (c) => {
    // A name no session can have is a 400, as for POST: a 404 would say it might have existed.
    const name = namedSession(c.req.param('name'))
    if (name === 'default') throw badRequest('The default session cannot be deleted; use POST /__admin/reset.')
    if (!(await deps.sessions.dropSession(name))) throw new ApiError(404, `No session named ${name}.`)
    return c.body(null, 204)
  })
  return routes
}
