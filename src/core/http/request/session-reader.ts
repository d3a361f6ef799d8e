import type { Context, MiddlewareHandler } from 'hono'

/** What every session has, whatever slice of it a feature sees: its name. */
export interface SessionName {
  readonly name: string
}

/**
 * The session a request selected, as the slice of it one feature owns (its
 * state port: FaultsSlice, PetsSlice, …). The composition roots, which select
 * the session and know the whole of its state (sessions/port.ts), give each
 * feature a reader of its slice; the compiler checks that the whole has it.
 */
export type SessionReader<Slice> = (c: Context) => Slice

/**
 * What admin routes need of the session: the middleware that selects it (X-Mock-Session), and its
 * reader; for a change that can be refused, `change` and `open` instead of `select`.
 */
export interface SessionAccess<Slice> {
  select: MiddlewareHandler
  read: SessionReader<Slice>
  /**
   * Selects the session now, once the route has checked its request (a refused change makes no
   * session: the GUIDE); `mode` `read` finds an existing one only (404 for an unknown name).
   */
  open(c: Context, mode?: 'read'): Promise<Slice>
  /** In place of `select` on a route that calls {@link open}: its answer says when its request made the session. */
  change: MiddlewareHandler
}
