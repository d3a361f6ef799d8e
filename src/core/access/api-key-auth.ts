import type { Context, MiddlewareHandler } from 'hono'
import { bearerAuth } from 'hono/bearer-auth'
import { equalsAny } from './constant-time.js'
import { ApiError } from '../http/errors.js'
import { errorResponse } from '../http/respond.js'

/** Options of {@link apiKeyAuth}. */
export interface ApiKeyAuthOptions {
  /** Accepted keys; none = any well-formed token. */
  keys: readonly string[]
  realm: string
  /** What the key is called in messages ("API key", "admin token"). */
  what?: string
}

const challenge = (realm: string, tokenSent: boolean) =>
  `Bearer realm="${realm}"${tokenSent ? ', error="invalid_token"' : ''}`

// RFC 9110 §11.1: the scheme name is case-insensitive.
const sentBearerToken = (c: Context): boolean => /^bearer +\S/i.test(c.req.header('Authorization') ?? '')

/**
 * Bearer authentication (hono's bearerAuth) answering every failure with a
 * 401 `Error` body and a `WWW-Authenticate` challenge for the realm.
 */
export const apiKeyAuth = ({ keys, realm, what = 'API key' }: ApiKeyAuthOptions): MiddlewareHandler => {
  const accepted = [...keys]
  const fail = (message: string, tokenSent: (c: Context) => boolean) => (c: Context) => {
    const error = new ApiError(401, message, { headers: { 'WWW-Authenticate': challenge(realm, tokenSent(c)) } })
    return errorResponse(c, error)
  }
  return bearerAuth({
    realm,
    // Not a Set lookup: hashing and comparing strings would leak timing (see constant-time.ts).
    verifyToken: (token) => accepted.length === 0 || equalsAny(token, accepted),
    noAuthenticationHeader: {
      message: fail(`Missing ${what}; send Authorization: Bearer <${what}>.`, () => false),
    },
    invalidAuthenticationHeader: {
      message: fail(
        `Malformed Authorization header; send Authorization: Bearer <${what}> (token characters A-Z a-z 0-9 - . _ ~ + / and trailing =).`,
        sentBearerToken,
      ),
    },
    invalidToken: { message: fail(`Invalid ${what}.`, () => true) },
  })
}
