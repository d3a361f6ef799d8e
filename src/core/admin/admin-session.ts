import { toMiddleware, type Stage } from '../http/stage.js'
import { whenReady } from '../async/maybe-promise.js'
// The variable read here: the headers a selection that made its session added.
import type {} from '../http/respond.js'
import type { RequestContext } from '../http/stage.js'
import type { SessionAccess } from '../http/request/session-reader.js'
import { adminSelectMode, sessionCreatedHeader } from '../sessions/lifecycle.js'
import type { SessionState, SessionStore } from '../sessions/port.js'
import { selectAdminSession, selectedSession, setSession } from '../sessions/select-session.js'

// A route's own answer (c.json) is not made by respond(): it is told here that its request made its session.
const marked = (res: Response, c: RequestContext): Response => {
  if (c.get('answerHeaders')?.[sessionCreatedHeader.toLowerCase()] !== undefined) {
    res.headers.set(sessionCreatedHeader, 'true')
  }
  return res
}

const markCreated: Stage = (c, next) => whenReady(next(c), marked, c)

/**
 * How the admin routes reach the session a request names: reads and changes that cannot be refused
 * select it first (`select`); a change that can be refused (a body to check, a capacity, a rule to
 * find) checks its request first and then `open`s it, so that a refused one makes no session (the
 * GUIDE: a refused request changes nothing), neither listed nor counted under --max-sessions or a
 * tenant's quota.
 */
export const adminSessionAccess = (sessions: SessionStore): SessionAccess<SessionState> => ({
  select: toMiddleware(selectAdminSession(sessions)),
  read: selectedSession,
  change: toMiddleware(markCreated),
  open: async (c, mode) => setSession(c, sessions, undefined, mode ?? adminSelectMode(c), false),
})
