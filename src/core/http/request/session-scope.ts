import type { Context } from 'hono'

/**
 * Which sessions a control-plane request may see, where a route lists
 * sessions rather than working on one (`GET /__admin/sessions`): the admin
 * guard (access/) sets it from the request's token, the session routes
 * (sessions/) read it. Unset: every session (an unscoped token, or an open
 * control plane).
 */
export type SessionScope = (name: string) => boolean

const scopeKey = Symbol('petstore-mock.session-scope')

type Scoped = Request & { [scopeKey]?: SessionScope }

/** Narrows what the request may see to the sessions `covers` accepts. */
export const setSessionScope = (c: Context, covers: SessionScope): void => {
  ;(c.req.raw as Scoped)[scopeKey] = covers
}

/** The sessions the request may see; undefined: every one. */
export const sessionScopeOf = (c: Context): SessionScope | undefined => (c.req.raw as Scoped)[scopeKey]
