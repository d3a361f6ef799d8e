import type { Context } from 'hono'
import type { AppEnv } from '../app-env.js'

/**
 * The request's Authorization header, read once: several stages need it
 * (authentication, the deprecation report, the rate limit), and on Node each
 * read of it scans the raw header list (it is one whose repeats are joined).
 */
export const authorizationOf = (c: Context<AppEnv>): string | undefined => {
  let value = c.get('authorization')
  if (value === undefined) {
    value = c.req.header('Authorization') ?? null
    c.set('authorization', value)
  }
  return value ?? undefined
}
