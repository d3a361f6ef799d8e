import type { Context } from 'hono'
import type { AppEnv } from '../app-env.js'
import { ApiError, badRequest } from '../http/errors.js'
import { addAnswerHeaders } from '../http/respond.js'
import { authorizationOf } from '../http/request-authorization.js'
import type { MaybePromise, ReadAhead, SessionState, SessionStore } from './port.js'
import type { Stage } from '../http/stage.js'
import {
  adminSelectMode,
  isOutcome,
  type Selection,
  type SelectMode,
  sessionCreatedHeader,
  sessionOf,
} from './lifecycle.js'
import { sessionPrefixOf } from './session-prefix.js'
import { authorizationSessionName } from './session-by-key.js'

/** The header that selects an isolated session. */
export const sessionHeader = 'X-Mock-Session'

const SESSION_NAME = /^[A-Za-z0-9._-]{1,64}$/

/** Whether a session name is acceptable: 1 to 64 of A-Z a-z 0-9 . _ - */
export const isSessionName = (name: string): boolean => SESSION_NAME.test(name)

/** How the app selects sessions besides the path prefix and the header. */
export interface SessionSelection {
  /** --session-by-key: on /v1, the API key names the session (session-by-key.ts). */
  byKey?: boolean
}

const createdHeaders = { [sessionCreatedHeader.toLowerCase()]: 'true' } as const

/**
 * The session a request names: by its path prefix (`/sessions/<name>/…`), its
 * `X-Mock-Session` header, or (with `byKey`, on /v1) its API key; undefined
 * for the default one. Selectors that agree are fine; two that name different
 * sessions answer 400 `session_conflict` naming both. A bad name answers 400.
 */
export const sessionNameOf = (c: Context<AppEnv>, byKey = false): string | undefined => {
  const prefixed = sessionPrefixOf(c)
  const header = c.req.header(sessionHeader)
  if (prefixed === undefined && header === undefined && !byKey) return undefined
  if (header !== undefined && !isSessionName(header)) {
    throw badRequest(
      `${sessionHeader} must be 1 to 64 characters of A-Z a-z 0-9 . _ - (got ${JSON.stringify(header)}).`,
    )
  }
  if (prefixed !== undefined && !isSessionName(prefixed.name)) {
    throw badRequest(
      `The session in the path (${JSON.stringify(prefixed.prefix)}) must be 1 to 64 characters of A-Z a-z 0-9 . _ -.`,
    )
  }
  let name = prefixed?.name
  let by = prefixed && `the path prefix ${prefixed.prefix}`
  if (header !== undefined) {
    if (name !== undefined && name !== header) throw conflict(by!, `${sessionHeader}: ${header}`)
    name = header
    by ??= `${sessionHeader}: ${header}`
  }
  if (byKey) {
    const keyed = authorizationSessionName(authorizationOf(c))
    if (keyed !== undefined) {
      if (name !== undefined && name !== keyed) throw conflict(by!, `the API key (session ${keyed}, --session-by-key)`)
      name = keyed
    }
  }
  return name
}

const conflict = (one: string, other: string): ApiError =>
  new ApiError(400, `The request names two sessions: ${one} and ${other}. Name one session, or the same one in each.`, {
    code: 'session_conflict',
  })

const created = (c: Context<AppEnv>) => () => addAnswerHeaders(c, createdHeaders)

const selected = (c: Context<AppEnv>, selection: Selection<SessionState>): SessionState => {
  const session = isOutcome(selection) ? sessionOf(selection, created(c)) : selection
  c.set('session', session)
  return session
}

/**
 * Puts the session the request names (or the default one) in `c.var.session`,
 * as `mode` allows (sessions/lifecycle.ts: 410 for an expired one, 503 at the
 * cap, 404 for an unknown one read); an answer whose request created its
 * session says so in `X-Mock-Session-Created: true`. `readAhead`: the read the
 * handler will likely make (port.ts).
 */
export const setSession = (
  c: Context<AppEnv>,
  sessions: SessionStore,
  readAhead?: ReadAhead,
  mode: SelectMode = 'use',
  byKey = false,
): MaybePromise<SessionState> => {
  const selection = sessions.select(sessionNameOf(c, byKey), mode, readAhead)
  if (selection instanceof Promise) return selection.then((s) => selected(c, s))
  return selected(c, selection)
}

/**
 * {@link setSession} as a stage for the admin routes (run through
 * `toMiddleware`): reads never create (adminSelectMode), and the created
 * header is put on the route's own answer too.
 */
export const selectSession =
  (sessions: SessionStore): Stage =>
  (c, next) => {
    const go = (): ReturnType<Stage> => {
      const res = next(c)
      if (c.get('answerHeaders')?.['x-mock-session-created'] === undefined) return res
      const mark = (r: Response) => (r.headers.set(sessionCreatedHeader, 'true'), r)
      return res instanceof Promise ? res.then(mark) : mark(res)
    }
    const picked = setSession(c, sessions, undefined, adminSelectMode(c))
    return picked instanceof Promise ? picked.then(go) : go()
  }
