import { ApiError, badRequest } from '../http/errors.js'
import { addAnswerHeaders } from '../http/respond.js'
import { authorizationOf } from '../http/request/authorization.js'
import type { Answer, Next, RequestContext, Stage } from '../http/stage.js'
import { type MaybePromise, whenReady } from '../async/maybe-promise.js'
import {
  badPrefixError,
  isSessionName,
  pathNameRule,
  sessionHeader,
  sessionPrefixOf,
} from '../http/request/session-name.js'
import type { SessionReader } from '../http/request/session-reader.js'
import { isOutcome, type Selection, type SelectMode, sessionCreatedHeader, sessionOf } from './lifecycle.js'
import type { ReadAhead, SessionState, SessionStore } from './port.js'
import { keySessionName } from './session-by-key.js'
import type { RequestChecks } from './checked-first.js'
import { bearerKey } from '../http/request/key-fingerprint.js'
import type { Tenancy } from '../tenants/tenancy.js'

declare module 'hono' {
  interface ContextVariableMap {
    /** The session the request selected (path prefix, X-Mock-Session or API key), once selected. */
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

/**
 * The session a request names: by its path prefix (`/sessions/<name>/…`), its
 * `X-Mock-Session` header, or (with `byKey`, on /v1) its API key (the name
 * derived from it, inside its tenant of `tenancy`: session-by-key.ts);
 * undefined for the default one. Selectors that agree are fine; two that
 * name different sessions answer 400 `session_conflict` naming both. A bad
 * name answers 400.
 */
export const sessionNameOf = (c: RequestContext, byKey = false, tenancy?: Tenancy): string | undefined => {
  const prefixed = sessionPrefixOf(c)
  const header = c.req.header(sessionHeader)
  if (prefixed === undefined && header === undefined && !byKey) return undefined
  if (header !== undefined && !isSessionName(header)) {
    throw badRequest(`${sessionHeader} must be ${pathNameRule} (got ${JSON.stringify(header)}).`)
  }
  if (prefixed !== undefined && !isSessionName(prefixed.name)) {
    throw badPrefixError(prefixed.prefix)
  }
  let name = prefixed?.name
  let by = prefixed && `the path prefix ${prefixed.prefix}`
  if (header !== undefined) {
    if (name !== undefined && name !== header) throw conflict(by!, `${sessionHeader}: ${header}`)
    name = header
    by ??= `${sessionHeader}: ${header}`
  }
  if (byKey) {
    const key = bearerKey(authorizationOf(c))
    const keyed = key === undefined ? undefined : keySessionName(key, tenancy?.keyOwner(key))
    // A tenant's key none of whose tenant's globs can hold a session of a key: it may reach none.
    if (key !== undefined && keyed === undefined) throw forbidden()
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

/** The one answer to a key that may not reach the session a request names: it names no tenant and no session. */
const forbidden = (): ApiError =>
  new ApiError(
    403,
    'This API key may not reach the session this request names; a key reaches only the sessions of its own tenant.',
    { code: 'session_forbidden' },
  )

/**
 * With tenants: whether the request's key may reach the session `name` (issue
 * 39): a tenant's key reaches only its tenant's sessions, a key of no tenant
 * (and a request with none, on a chain that does not authenticate) only the
 * sessions of no tenant. Throws 403 `session_forbidden` otherwise, before any
 * session is selected or made.
 */
const checkOwner = (c: RequestContext, name: string | undefined, tenancy: Tenancy): void => {
  const authorization = authorizationOf(c)
  // Speed trick: a client sends the same header to the same session on most requests, and the
  // verdict depends on those two and the tenancy alone (fixed at start): the last pair that passed
  // passes again without reading the key out of the header (a regular expression) and two lookups.
  // Only a pass is kept; a refusal is decided in full each time. Tested in
  // test/core/tenants/owner-check.test.ts.
  if (name === passed.name && authorization === passed.authorization && tenancy === passed.tenancy) return
  const key = bearerKey(authorization)
  const keyTenant = key === undefined ? undefined : tenancy.keyOwner(key)
  if (tenancy.ownerOf(name) !== keyTenant) throw forbidden()
  passed = { name, authorization, tenancy }
}

/** The last request that {@link checkOwner} let through: its session's name, its Authorization header and the tenancy. */
let passed: { name: string | undefined; authorization: string | undefined; tenancy: Tenancy | undefined } = {
  name: undefined,
  authorization: undefined,
  tenancy: undefined,
}

const createdKey = sessionCreatedHeader.toLowerCase()
const createdHeaders = { [createdKey]: 'true' } as const

// The rare case (a selection that made its session, or none to use): the plain session is one property check.
const selected = (selection: Selection<SessionState>, c: RequestContext): SessionState => {
  const session = isOutcome(selection) ? sessionOf(selection, () => addAnswerHeaders(c, createdHeaders)) : selection
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
  c: RequestContext,
  sessions: SessionStore,
  readAhead: ReadAhead | undefined,
  mode: SelectMode,
  byKey: boolean,
  tenancy?: Tenancy,
): MaybePromise<SessionState> => {
  const name = sessionNameOf(c, byKey, tenancy)
  if (tenancy?.active === true) checkOwner(c, name, tenancy)
  return whenReady(sessions.select(name, mode, readAhead), selected, c)
}

const proceed = (_: SessionState, c: RequestContext, next: Next): Answer => next(c)

/** The name of the session a request names, or undefined for the default one or a bad name (answered 400 elsewhere). */
export const namedSession = (c: RequestContext, byKey = false): string | undefined => {
  const selected = c.get('session') as SessionState | undefined
  if (selected !== undefined) return selected.name
  try {
    return sessionNameOf(c, byKey)
  } catch {
    return undefined
  }
}

/**
 * The tenant of the session a request names, for the metrics and the log: its name, or `''` for
 * a session of no tenant (the default session, a name no glob matches, a bad name). Read from the
 * name even when no session was selected (the session cap refused it, authentication came first).
 */
export const tenantOfRequest =
  (tenancy: Tenancy, byKey = false) =>
  (c: RequestContext): string =>
    tenancy.ownerOf(namedSession(c, byKey))?.name ?? ''

/** How the API selects sessions besides the path prefix and the header. */
export interface SelectOptions {
  /** --session-by-key: the API key names the session (session-by-key.ts). */
  byKey?: boolean
  /**
   * Who owns which session and key: with tenants, a key reaches only its
   * tenant's sessions (403 `session_forbidden`, decided before selecting).
   */
  tenancy?: Tenancy
  /**
   * The request's own checks: with them, a session that does not exist yet is made only once they
   * pass (a request they refuse makes none); an existing one is used as without.
   */
  checks?: RequestChecks
}

/**
 * Selects the request's session (path prefix, `X-Mock-Session` or, with
 * `byKey`, the API key; 400 for a bad name or a conflict), creating it when
 * new, as a stage of the API's chains. `readAheadOf`: the read the
 * operation's handler will likely make, named to the store with the
 * selection (port.ts).
 */
export const selectSession = (
  sessions: SessionStore,
  readAheadOf?: ReadAheadOf,
  options: SelectOptions = {},
): Stage => {
  const byKey = options.byKey === true
  const tenancy = options.tenancy?.active === true ? options.tenancy : undefined
  const { checks } = options
  if (checks === undefined) {
    return (c, next) => whenReady(setSession(c, sessions, readAheadOf?.(c), 'use', byKey, tenancy), proceed, c, next)
  }
  // A new session (the rare case) is made once the request's checks pass: `read` finds an existing one as `use` does.
  // Made (or found: made by another request meanwhile, which discardMade tells). On /v1 a refusal is
  // thrown, and answered by the stage that watches the answer (journal-listener.ts).
  const make = (refused: Answer | undefined, c: RequestContext, next: Next): Answer =>
    refused ??
    new Promise<Response>((done) =>
      done(whenReady(setSession(c, sessions, readAheadOf?.(c), 'use', byKey, tenancy), proceed, c, next)),
    ).catch(async (error: unknown) => {
      // Thrown: a refusal (an answer with the status, a rule's, is not).
      if (isRefusal((error as ApiError)?.status)) await undoMade(sessions, c)
      throw error
    })
  const found = (selection: Selection<SessionState>, c: RequestContext, next: Next): Answer => {
    if (isOutcome(selection) && selection.outcome === 'unknown') return whenReady(checks.first(c), make, c, next)
    selected(selection, c)
    return next(c)
  }
  return (c, next) => {
    const name = sessionNameOf(c, byKey, tenancy)
    if (tenancy !== undefined) checkOwner(c, name, tenancy)
    return whenReady(sessions.select(name, 'read', readAheadOf?.(c)), found, c, next)
  }
}

/**
 * Whether a status the mock throws refuses its request: any 4xx (the pet it names is not there, a
 * method the path does not take, its sunset passed) and 507 (the memory budget, --max-pets once
 * added to the start pets). A rule's answer with such a status is an answer, never thrown: undoing
 * its session would give the next request the same first draw, and so the same answer, for ever.
 */
const isRefusal = (status: number | undefined): boolean =>
  status !== undefined && ((status >= 400 && status < 500) || status === 507)

/**
 * Undoes the session a request made, the request being refused once in it (a 4xx, or a 507: a change
 * its contents refuse): the GUIDE's "a refused request changes nothing". The store drops it only if no other request has used it since
 * (SessionStore.discardMade); then the request names no session to what watches its answer
 * (journaled nowhere, as a request refused before selecting) and its answers do not say it made
 * one (then `c.var.session` is undefined).
 */
export const undoMade = async (sessions: SessionStore, c: RequestContext): Promise<void> => {
  if (await sessions.discardMade(c.get('session'))) {
    c.set('session', undefined as unknown as SessionState)
    const { [createdKey]: _, ...kept } = c.get('answerHeaders')!
    c.set('answerHeaders', kept)
  }
}
