import { type Answer, type Next, type RequestContext, type Stage, toMiddleware } from '../http/stage.js'
import { type MaybePromise, whenReady } from '../async/maybe-promise.js'
import type { SessionAccess } from '../http/request/session-reader.js'
import { adminSelectMode, sessionCreatedHeader } from '../sessions/lifecycle.js'
import type { SessionState, SessionStore } from '../sessions/port.js'
import { selectedSession, setSession, undoMade } from '../sessions/select-session.js'
// The variable read here: the headers a selection that made its session added.
import type {} from '../http/respond.js'

const createdKey = sessionCreatedHeader.toLowerCase()

/** Whether the request's selection made its session (its answers say so). */
const madeItsSession = (c: RequestContext): boolean => c.get('answerHeaders')?.[createdKey] !== undefined

/**
 * An admin route's answer (c.json is not made by respond()), told that its request made its
 * session (`X-Mock-Session-Created: true`); or, refused with 507, without the session when
 * select-session.ts `undoMade` could drop it.
 */
const madeSessionAnswer = (res: Response, c: RequestContext, sessions: SessionStore): MaybePromise<Response> => {
  if (!madeItsSession(c)) return res
  if (res.status !== 507) return markCreated(res)
  return undoMade(sessions, c).then(() => {
    if (c.get('session') !== undefined) return markCreated(res)
    res.headers.delete(sessionCreatedHeader)
    return res
  })
}

const markCreated = (res: Response): Response => {
  res.headers.set(sessionCreatedHeader, 'true')
  return res
}

/**
 * select-session.ts `selectSession` for the admin routes (run through `toMiddleware`): reads never
 * create (sessions/lifecycle.ts `adminSelectMode`: 404 for an unknown session), a reset or a snapshot
 * put makes a session over its tombstone, and the route's own answer carries `X-Mock-Session-Created`.
 */
export const selectAdminSession = (sessions: SessionStore): Stage => {
  const proceed = (_: SessionState, c: RequestContext, next: Next): Answer =>
    madeItsSession(c) ? whenReady(next(c), madeSessionAnswer, c, sessions) : next(c)
  return (c, next) => whenReady(setSession(c, sessions, undefined, adminSelectMode(c), false), proceed, c, next)
}

/**
 * How the admin routes reach the session a request names: reads and changes that cannot be refused
 * select it first (`select`); a change that can be refused (a body to check, a capacity, a rule to
 * find) checks its request first and then `open`s it, so that a refused one makes no session (the
 * GUIDE: a refused request changes nothing), neither listed nor counted under --max-sessions or a
 * tenant's quota. One refused with 507 once in the session it made (its contents refused the
 * change) leaves none either, unless another request has used it since (select-session.ts).
 */
export const adminSessionAccess = (sessions: SessionStore): SessionAccess<SessionState> => ({
  select: toMiddleware(selectAdminSession(sessions)),
  read: selectedSession,
  change: toMiddleware((c, next) => whenReady(next(c), madeSessionAnswer, c, sessions)),
  open: async (c, mode) => setSession(c, sessions, undefined, mode ?? adminSelectMode(c), false),
})
