import type { RequestContext } from '../stage.js'

declare module 'hono' {
  interface ContextVariableMap {
    /** The query parameters, parsed once (see {@link queryParams}). */
    query: Readonly<Record<string, string[]>> | undefined
  }
}

const none: Readonly<Record<string, string[]>> = Object.freeze(Object.create(null))

/**
 * Every query parameter of the request with all its values, parsed once:
 * hono's `c.req.query()` and `c.req.queries()` parse the URL again on each
 * call, and a request is read by several stages (mock controls, validation).
 */
export const queryParams = (c: RequestContext): Readonly<Record<string, string[]>> => {
  let params = c.get('query')
  if (params === undefined) {
    params = c.req.url.includes('?') ? c.req.queries() : none
    c.set('query', params)
  }
  return params
}
