import type { MiddlewareHandler } from 'hono'
import type { Answer, RequestContext, Stage } from '../http/stage.js'
import type { Transport } from '../http/transport.js'

/** The header a request's id comes in and every `/v1` and `/__admin` answer carries it back in. */
export const requestIdHeader = 'X-Request-Id'

/** Longest id taken from a caller: longer ones are replaced by one the mock makes. */
export const maxRequestIdLength = 128

// Letters, digits and the punctuation ids are made of (UUIDs, ULIDs, `req-…`, base64url, `a:b`, `a/b`):
// nothing that could break a log line, a header or a shell, and no spaces.
const safeId = /^[A-Za-z0-9._:/+=@-]+$/

/** Whether `text` is taken as a request id: 1 to {@link maxRequestIdLength} characters of a safe set. */
export const isRequestId = (text: string): boolean => text.length <= maxRequestIdLength && safeId.test(text)

const idKey = Symbol('petstore-mock.request-id')

// Node's global `crypto` is a getter that loads WebCrypto (SubtleCrypto and its algorithms: about 3 ms
// of a server's first request); the Node host hands in node:crypto's randomUUID, loaded already.
let randomId: () => string = () => crypto.randomUUID()

/** Makes the ids of requests that bring none with `make` (a random UUID maker) from now on, in this process. */
export const makeRequestIdsWith = (make: () => string): void => {
  randomId = make
}

type WithId = Request & { [idKey]?: string }

/**
 * The request's id: the caller's `X-Request-Id` when it is safe to log and answer
 * ({@link isRequestId}), else a random UUID made here. Kept on the web Request, so that
 * the `/v1` chain, the control plane (an app of its own, handed the same Request) and the
 * request log read the same id.
 */
export const requestIdOf = (c: RequestContext): string => {
  const raw = c.req.raw as WithId
  let id = raw[idKey]
  if (id === undefined) {
    const sent = c.req.header(requestIdHeader)
    raw[idKey] = id = sent !== undefined && isRequestId(sent) ? sent : randomId()
  }
  return id
}

/** `res` carrying the request's id (a copy when its headers are immutable: a redirect, a fetched answer). */
const stamped = (res: Response, id: string): Response => {
  try {
    res.headers.set(requestIdHeader, id)
    return res
  } catch {
    const copy = new Response(res.body, res)
    copy.headers.set(requestIdHeader, id)
    return copy
  }
}

/**
 * The first stage of each `/v1` chain: reads or makes the request's id (before anything
 * logs or journals) and puts it on the answer, after the answer's listeners were told (the
 * journal records the answer as the chain built it); through the host's own headers when
 * `transport` writes them (Node), else on the Response.
 */
export const requestIdStage = (transport: Pick<Transport, 'answerHeader'>): Stage => {
  const { answerHeader } = transport
  const stamp = (c: RequestContext, res: Response, id: string): Response =>
    answerHeader?.(c, requestIdHeader, id) === true ? res : stamped(res, id)
  return (c, next): Answer => {
    const id = requestIdOf(c)
    const answer = next(c)
    return answer instanceof Promise ? answer.then((res) => stamp(c, res, id)) : stamp(c, answer, id)
  }
}

/** {@link requestIdStage} as a hono middleware, for the control plane's routes. */
export const requestIdMiddleware: MiddlewareHandler = async (c, next) => {
  const id = requestIdOf(c)
  await next()
  c.res = stamped(c.res, id)
}
