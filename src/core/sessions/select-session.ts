import type { Context } from 'hono'
import type { AppEnv } from '../app-env.js'
import { badRequest } from '../http/errors.js'
import type { MaybePromise, ReadAhead, SessionState, SessionStore } from './port.js'
import type { Stage } from '../http/stage.js'
import { isSessionName, sessionHeader } from '../state/session-name.js'

/**
 * Puts the session the request names (or the default one) in `c.var.session`;
 * 400 for a bad name. `readAhead`: the read the handler will likely make (port.ts).
 */
export const setSession = (
  c: Context<AppEnv>,
  sessions: SessionStore,
  readAhead?: ReadAhead,
): MaybePromise<SessionState> => {
  const name = c.req.header(sessionHeader)
  if (name !== undefined && !isSessionName(name)) {
    throw badRequest(`${sessionHeader} must be 1 to 64 characters of A-Z a-z 0-9 . _ - (got ${JSON.stringify(name)}).`)
  }
  const session = sessions.session(name, readAhead)
  if (session instanceof Promise) {
    return session.then((selected) => {
      c.set('session', selected)
      return selected
    })
  }
  c.set('session', session)
  return session
}

/** {@link setSession} as a stage (the admin routes run it through `toMiddleware`). */
export const selectSession =
  (sessions: SessionStore): Stage =>
  (c, next) => {
    const selected = setSession(c, sessions)
    return selected instanceof Promise ? selected.then(() => next(c)) : next(c)
  }
