import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { ApiError, ConnectionResetError } from './errors.js'
import { toJsonText } from './known-json.js'
import type { RequestContext } from './stage.js'
import { noScriptHeaders, withNoScript } from './no-script.js'

declare module 'hono' {
  interface ContextVariableMap {
    /** Headers every answer to the request carries, errors included (deprecation, rate limit); lower-case names. */
    answerHeaders: Readonly<Record<string, string>> | undefined
  }
}

// The no-script headers in the constant: a JSON answer with no header of its own is built with no copy.
const jsonType = { 'content-type': 'application/json', ...noScriptHeaders } as const

// Speed trick (contained here, tested in test/core/http/respond.test.ts): the record of an answer
// with headers of its request is folded once per pair of records and handed out again while the
// same two come. A deprecated operation's lifecycle headers are one constant record per operation
// (deprecation-stage.ts) and its answers' own headers the constant `jsonType`, so every 200 of
// `getPet` got a new seven-header object, and the journal compared it name by name with the last
// one it kept. Handing out the same frozen object is safe: nothing writes to an answer's record
// (@hono/node-server copies it before adding Content-Length; the journal keeps it as it is).
// A record of one request only (a rate limit's counts) never repeats: two comparisons, then the
// spread as before, and the pair remembered is the last one seen.
let lastHeaders: Readonly<Record<string, string>> | undefined
let lastExtra: Readonly<Record<string, string>> | undefined
let lastFolded: Readonly<Record<string, string>> = noScriptHeaders

/** `headers` with `extra` and the no-script headers over them: the same object as last time for the same two records. */
export const folded = (
  headers: Readonly<Record<string, string>>,
  extra: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> => {
  if (headers !== lastHeaders || extra !== lastExtra) {
    lastFolded = Object.freeze({ ...headers, ...extra, ...noScriptHeaders })
    lastHeaders = headers
    lastExtra = extra
  }
  return lastFolded
}

/** An answer's parts as built, for the journal: reading a sent Response's headers or body costs a copy. */
export interface BuiltAnswer {
  /** Lower-case names. */
  headers: Readonly<Record<string, string>>
  text: string | null
  /** Whether the answer is JSON (its Content-Type is application/json). */
  json: boolean
}

// Carried by the Response each stage returns: the journal finds the parts on the answer it is given,
// and an answer replaced on the way out (malformed_body, CORS headers merged) has none. A property,
// not a WeakMap: a WeakMap entry per answer costs the hot path measurably more.
const builtKey = Symbol('built answer')

type WithParts = Response & { [builtKey]?: BuiltAnswer }

/** The parts `res` was built from by {@link respond}; undefined for a Response built otherwise. */
export const builtAnswer = (res: Response): BuiltAnswer | undefined => (res as WithParts)[builtKey]

/** `res` carrying the parts it was built from, for an answer made apart (a dripped body: faults/slow-faults.ts). */
export const markBuilt = (res: Response, parts: BuiltAnswer): Response => {
  ;(res as WithParts)[builtKey] = parts
  return res
}

/**
 * Builds an answer from a plain header object (lower-case names), adding the
 * headers every answer of this request carries (`c.var.answerHeaders`:
 * deprecation, rate limit) and the no-script ones, which win over the given
 * (no-script.ts: a rule's answer runs no script). Not hono's `c.json`: given more than one header,
 * it builds a web `Headers`, which `@hono/node-server` converts back to an
 * object for every answer.
 */
export const respond = (
  c: RequestContext,
  text: string | null,
  status: number,
  headers: Readonly<Record<string, string>>,
): Response => {
  const extra = c.get('answerHeaders')
  const all = extra ? folded(headers, extra) : withNoScript(headers)
  const res = new Response(text, { status, headers: all })
  ;(res as WithParts)[builtKey] = { headers: all, text, json: all['content-type'] === jsonType['content-type'] }
  return res
}

/** A JSON answer: `value` serialised (its known text when marked: known-json.ts), with `headers` (lower-case names) besides the content type. */
export const respondJson = (
  c: RequestContext,
  value: unknown,
  status = 200,
  headers?: Readonly<Record<string, string>>,
): Response => respond(c, toJsonText(value), status, headers ? { ...jsonType, ...headers } : jsonType)

/** Adds headers that every answer to this request carries, errors included. */
export const addAnswerHeaders = (c: RequestContext, headers: Readonly<Record<string, string>>): void => {
  const current = c.get('answerHeaders')
  c.set('answerHeaders', current ? { ...current, ...headers } : headers)
}

const lowerCased = (headers: Readonly<Record<string, string>>): Record<string, string> => {
  const lower: Record<string, string> = {}
  for (const name in headers) lower[name.toLowerCase()] = headers[name]!
  return lower
}

/** The JSON `Error` response for an ApiError, with its extra headers. */
export const errorResponse = (c: Context, error: ApiError): Response =>
  respondJson(c as RequestContext, error.body, error.status, lowerCased(error.headers))

/**
 * Maps anything thrown while handling a request to an `Error` response:
 * ApiErrors as they are, hono's HTTPExceptions by status, anything else as a
 * 500 whose details go to the log only. It takes the one method it calls
 * (a `Logger` of `log/` fits), so that the floor's `http/` does not import `log/`, which imports it.
 */
export const handleError =
  (logger: { error(message: string, error?: unknown): void }) =>
  (error: Error, c: Context): Response => {
    if (error instanceof ApiError) return errorResponse(c, error)
    if (error instanceof ConnectionResetError) throw error
    if (error instanceof HTTPException) {
      const res = error.getResponse()
      if (res.headers.get('content-type')?.startsWith('application/json')) return res
      return errorResponse(c, new ApiError(error.status, error.message || res.statusText || 'Request failed.'))
    }
    logger.error(`${c.req.method} ${c.req.path} failed unexpectedly`, error)
    return errorResponse(c, new ApiError(500, 'The server failed unexpectedly; the failure was logged.'))
  }
