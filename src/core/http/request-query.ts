import type { Context } from 'hono'
import type { AppEnv } from '../app-env.js'

const none: Readonly<Record<string, string[]>> = Object.freeze(Object.create(null))

/**
 * Every query parameter of the request with all its values, parsed once:
 * hono's `c.req.query()` and `c.req.queries()` parse the URL again on each
 * call, and a request is read by several stages (mock controls, validation).
 */
export const queryParams = (c: Context<AppEnv>): Readonly<Record<string, string[]>> => {
  let params = c.get('query')
  if (params === undefined) {
    params = c.req.url.includes('?') ? c.req.queries() : none
    c.set('query', params)
  }
  return params
}
