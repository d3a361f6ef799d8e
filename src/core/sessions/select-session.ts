import { badRequest } from '../http/errors.js'
import type { Answer, Next, RequestContext, Stage } from '../http/stage.js'
import { type MaybePromise, whenReady } from '../state/maybe-promise.js'
import { isSessionName, sessionHeader } from '../state/session-name.js'
import type { SessionReader } from '../state/session-reader.js'
import type { ReadAhead, SessionState, SessionStore } from './port.js'

declare module 'hono' {
  interface ContextVariableMap {
    /** The session the request selected (X-Mock-Session), once selected. */
    session: SessionState
  }
}

/** The read a request's handler will most likely make, guessed from the raw request; undefined: no guess. */
export type ReadAheadOf = (c: RequestContext) => ReadAhead | undefined

/**
 * The session the request selected, whole (undefined until it is): what the
 * composition roots hand each feature as the reader of its slice.
 */
export const selectedSession: SessionReader<SessionState> = (c) => c.get('session')

const selected = (session: SessionState, c: RequestContext): SessionState => {
  c.set('session', session)
  return session
}

/**
 * Puts the session the request names (or the default one) in `c.var.session`;
 * 400 for a bad name. `readAhead`: the read the handler will likely make (port.ts).
 */
const setSession = (c: RequestContext, sessions: SessionStore, readAhead?: ReadAhead): MaybePromise<SessionState> => {
  const name = c.req.header(sessionHeader)
  if (name !== undefined && !isSessionName(name)) {
    throw badRequest(`${sessionHeader} must be 1 to 64 characters of A-Z a-z 0-9 . _ - (got ${JSON.stringify(name)}).`)
  }
  return whenReady(sessions.session(name, readAhead), selected, c)
}

const proceed = (_: SessionState, c: RequestContext, next: Next): Answer => next(c)

/**
 * Selects the request's session (`X-Mock-Session`; 400 for a bad name), as
 * a stage (the admin routes run it through `toMiddleware`). `readAheadOf`:
 * the read the operation's handler will likely make, named to the store with
 * the selection (port.ts).
 */
export const selectSession =
  (sessions: SessionStore, readAheadOf?: ReadAheadOf): Stage =>
  (c, next) =>
    whenReady(setSession(c, sessions, readAheadOf?.(c)), proceed, c, next)
