import type { Context } from 'hono'
import { ApiError } from '../http/errors.js'
import { sessionsSegment } from '../http/request/session-name.js'
import type { Tombstone } from './tombstones.js'

/**
 * Sessions that never vanish silently (issue 28). A session is created by its
 * first use, lives while it is used, and is dropped only when asked
 * (`DELETE /__admin/sessions/{name}`) or once idle for longer than the TTL
 * (`--session-ttl`); a dropped-by-expiry session leaves a tombstone, and a
 * request naming it answers 410 until it is created again explicitly. At the
 * cap (`--max-sessions`), a new session is refused, never made by evicting a
 * live one: only sessions idle past the TTL are dropped to make room.
 */

/** How a selection may make the session it names. */
export type SelectMode =
  /** Use it, creating it when new (a /v1 request, an admin write); a tombstone answers 410. */
  | 'use'
  /** Only an existing one (an admin read): 404 for an unknown name, 410 for a tombstone. */
  | 'read'
  /** Create it even over its tombstone (POST /__admin/sessions/{name}, reset, a snapshot put). */
  | 'revive'

/** A selection that did not simply find its session: it made it, or there is none to use. */
export type SessionOutcome<S = unknown> =
  | { readonly outcome: 'created'; readonly session: S }
  | { readonly outcome: 'expired'; readonly tombstone: Tombstone }
  /**
   * At the cap: `sessions` of the most `max`. With tenants, `tenant` names the tenant at its
   * `quota.sessions` (absent: the sessions of no tenant at what no tenant reserved of --max-sessions).
   */
  | { readonly outcome: 'full'; readonly sessions: number; readonly max: number; readonly tenant?: string }
  | { readonly outcome: 'unknown'; readonly name: string }

/** What a selection answers: the session it found, or an outcome (rare: the hot path checks one property). */
export type Selection<S> = S | SessionOutcome<S>

/** Whether a selection is an outcome rather than a plain session. */
export const isOutcome = <S>(selection: Selection<S>): selection is SessionOutcome<S> =>
  (selection as { outcome?: unknown }).outcome !== undefined

/** The session's idle policy and what hears of drops; part of the start state. */
export interface SessionPolicy {
  /** Idle time after which a session is dropped, ms; 0: never. The default session never expires. */
  ttlMs: number
  /** Hears of every session dropped by expiry (the app logs it). */
  onDrop?: (tombstone: Tombstone) => void
  /** Real time, epoch ms (tests replace it). */
  now?: () => number
}

/** The default idle time, seconds (4 hours: a working half-day). */
export const defaultSessionTtlSeconds = 4 * 60 * 60

/** The header an answer carries when its request created its session. */
export const sessionCreatedHeader = 'X-Mock-Session-Created'

const iso = (at: number): string => new Date(at).toISOString()

/** The 410 for a request naming an expired session. */
export const expiredError = (stone: Tombstone): ApiError =>
  new ApiError(
    410,
    `Session ${stone.name} expired at ${iso(stone.at)}: idle for more than ${stone.ttlSeconds} s (--session-ttl); its world is gone. Create it again with POST /__admin/sessions/${stone.name} (or POST /__admin/reset in it).`,
    { code: 'session_expired' },
  )

/** The answer to an outcome that leaves no session to use. */
export const outcomeError = (outcome: Exclude<SessionOutcome, { outcome: 'created' }>): ApiError => {
  switch (outcome.outcome) {
    case 'expired':
      return expiredError(outcome.tombstone)
    case 'full':
      if (outcome.tenant !== undefined) {
        const { tenant } = outcome
        return new ApiError(
          429,
          `Tenant ${tenant} has ${outcome.sessions} sessions, its quota (quota.sessions); no new session was created. Free one with DELETE /__admin/sessions/{name} and a ${tenant} admin token, or wait until one is idle past --session-ttl.`,
          { code: 'quota_exceeded' },
        )
      }
      return new ApiError(
        503,
        `${outcome.sessions} sessions exist, the most this server keeps (--max-sessions ${outcome.max}); no new session was created. Free one with DELETE /__admin/sessions/{name}, or wait until one is idle past --session-ttl.`,
        { code: 'too_many_sessions' },
      )
    case 'unknown':
      return new ApiError(
        404,
        `No session named ${outcome.name}; a session is created by its first /v1 request or admin change, or by POST /__admin/sessions/${outcome.name}.`,
        { code: 'session_not_found' },
      )
  }
}

/** The session of a selection, or the error its outcome answers; `created` is told when it was made. */
export const sessionOf = <S>(selection: Selection<S>, created?: () => void): S => {
  if (!isOutcome(selection)) return selection
  if (selection.outcome === 'created') {
    created?.()
    return selection.session
  }
  throw outcomeError(selection)
}

/**
 * How an admin route may make its session: reads (GET, HEAD) never create,
 * the event stream included (404 `session_not_found` for an unknown name);
 * a reset, a snapshot put and POST /__admin/sessions/{name} create over a
 * tombstone; other changes create a new session but answer 410 for a tombstone.
 */
export const adminSelectMode = (c: Context): SelectMode => {
  const method = c.req.method
  const path = c.req.path
  // Every read, the event stream included, only finds a session: a read-only token must create
  // nothing (issue 40 §6). The QA panel creates the session it shows first (POST /__admin/sessions/{name}).
  if (method === 'GET' || method === 'HEAD') return 'read'
  if ((method === 'POST' && path === '/__admin/reset') || (method === 'PUT' && path === '/__admin/snapshot')) {
    return 'revive'
  }
  return 'use'
}

/** The log line of a drop. */
export const dropLine = (stone: Tombstone): string =>
  `session ${stone.name} dropped at ${iso(stone.at)}: idle for more than ${stone.ttlSeconds} s (--session-ttl); requests naming it answer 410 until it is created again`

/** `/sessions/<name>`: the base a client puts before /v1 or /__admin to use a session. */
export const sessionBase = (name: string): string => `${sessionsSegment}${name}`
