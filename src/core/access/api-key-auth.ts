import type { Context, MiddlewareHandler } from 'hono'
import { bearerAuth } from 'hono/bearer-auth'
import { equalsAny } from './constant-time.js'
import { ApiError } from '../http/errors.js'
import {
  authorizationOf,
  bearerToken,
  isRepeatedAuthorization,
  repeatedAuthorizationError,
} from '../http/request/authorization.js'
import { errorResponse } from '../http/respond.js'
import { fromMiddleware, type Next, type OnError, type Stage } from '../http/stage.js'

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

const sentBearerToken = (c: Context): boolean => bearerToken(c.req.header('Authorization')) !== undefined

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

/**
 * Authentication (a hono middleware: bearerAuth, see {@link apiKeyAuth}) as a
 * stage that remembers its last verdict. The middleware alone judges; but a
 * client sends the same Authorization header on every request, and a header
 * identical to the last one it accepted is accepted again at once (compared
 * in constant time, as the keys are) instead of by a second asynchronous
 * pass through it: the verdict depends on that header alone.
 */
export const authStage = (middleware: MiddlewareHandler, onError: OnError): Stage => {
  const judged = fromMiddleware(middleware, onError)
  let accepted: string[] = []
  return (c, next) => {
    const header = authorizationOf(c)
    if (header !== undefined && accepted.length === 1 && equalsAny(header, accepted)) return next(c)
    // Off the path of an accepted header: a repeated one is never accepted.
    if (isRepeatedAuthorization(header)) throw repeatedAuthorizationError('API key')
    return judged(c, (c) => {
      if (header !== undefined) accepted = [header]
      return next(c)
    })
  }
}

/**
 * `authenticate` as a gate that refuses nothing: an authenticated request
 * goes on; any other is answered by `otherwise` (the rest of the chain, and
 * the session it would select, never run), instead of the 401.
 */
export const authenticatedOr =
  (authenticate: Stage, otherwise: Next): Stage =>
  (c, next) => {
    let passed = false
    const answer = authenticate(c, (c) => {
      passed = true
      return next(c)
    })
    // The middleware refuses by throwing (hono's HTTPException); an accepted header it remembered passes at once.
    if (!(answer instanceof Promise)) return answer
    return answer.then(
      (res) => (passed ? res : otherwise(c)),
      (error: unknown) => {
        if (passed) throw error
        return otherwise(c)
      },
    )
  }
