import type { Context } from 'hono'
import type { AppEnv } from '../app-env.js'
import { isJsonType } from '../http/json.js'
import { type JournalRecord, keepBody, type RecordedResponse, redactAuthorization, type Shaping } from './journal.js'
import type { MaybePromise } from '../sessions/port.js'
import type { SpecOperation } from '../spec/spec.js'
import type { Transport } from '../http/transport.js'
import { builtAnswer } from '../http/respond.js'
import { authorizationOf } from '../http/request-authorization.js'
import { bearerToken, fingerprint } from '../access/fingerprint.js'
import { type Answer, type OnError, type Stage, settled } from '../http/stage.js'

const isJsonText = (text: string): boolean => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/** The answer as recorded: its parts as built (respond.ts), else read from the Response (a copy). */
const responseOf = (c: Context<AppEnv>, res: Response): RecordedResponse | Promise<RecordedResponse> => {
  const built = builtAnswer(res)
  // Reading a built answer's parts from the Response would turn its plain headers into a web Headers.
  if (built !== undefined) {
    const recorded: RecordedResponse = { status: res.status, headers: built.headers }
    if (c.req.method !== 'HEAD' && built.text !== null && built.text !== '')
      recorded.body = keepBody(built.text, built.json)
    return recorded
  }
  // Replaced on the way out (malformed_body, CORS headers merged by hono) or built by a hono middleware.
  const headers: string[] = []
  res.headers.forEach((value, name) => headers.push(name, value))
  const recorded: RecordedResponse = { status: res.status, headers }
  if (c.req.method === 'HEAD') return recorded
  return res
    .clone()
    .text()
    .then((text) => {
      if (text !== '') recorded.body = keepBody(text, isJsonType(res.headers.get('content-type')) && isJsonText(text))
      return recorded
    })
}

/** Notes for the journal how a control (latency, override, fault rule) shaped the answer. */
export const noteShaping = (c: Context<AppEnv>, shaping: Shaping): void => {
  const noted = c.get('shaping')
  if (noted === undefined) c.set('shaping', [shaping])
  else noted.push(shaping)
}

/** Request headers as kept: a fresh list, Authorization redacted. */
const keptHeaders = (c: Context<AppEnv>, transport: Transport): string[] => {
  const headers = transport.requestHeaders(c)
  for (let i = 0; i + 1 < headers.length; i += 2) {
    const name = headers[i]!
    if (name.length === 13 && name.toLowerCase() === 'authorization')
      headers[i + 1] = redactAuthorization(headers[i + 1]!)
  }
  return headers
}

/**
 * Records the answered request (`res`; undefined when the connection was
 * reset) in the journal of the session it selected, if it selected one.
 * Synchronous unless the answer's body must be read from the Response.
 */
const record = (
  c: Context<AppEnv>,
  operation: string | null,
  start: number,
  res: Response | undefined,
  transport: Transport,
): void | Promise<unknown> => {
  const session = c.get('session')
  if (session === undefined) return
  const shapedBy = c.get('shaping')
  const reset = res === undefined || shapedBy?.some((s: Shaping) => s.by === 'fault' && s.fault === 'connection_reset')
  const entry: Omit<JournalRecord, 'id'> = {
    time: Date.now(),
    method: c.req.method,
    url: c.req.url,
    path: c.req.path,
    operation,
    status: reset ? 0 : res.status,
    durationMs: Math.round((performance.now() - start) * 100) / 100,
    headers: keptHeaders(c, transport),
  }
  const bodyText = c.get('bodyText')
  if (bodyText !== undefined) entry.body = keepBody(bodyText, c.get('body') !== undefined)
  if (shapedBy !== undefined) entry.shapedBy = shapedBy
  const violations = c.get('violations')
  if (violations !== undefined) entry.violations = violations
  const apiKey = apiKeyOf(authorizationOf(c))
  if (apiKey !== undefined) entry.apiKey = apiKey
  if (reset) return stored(session.record(entry))
  const response = responseOf(c, res)
  if (!(response instanceof Promise)) {
    entry.response = response
    return stored(session.record(entry))
  }
  return response.then((recorded) => {
    entry.response = recorded
    return stored(session.record(entry))
  })
}

// The last Authorization header and its key's fingerprint: a client sends the same one on every request.
let lastHeader: string | undefined
let lastKey: string | undefined

/** The fingerprint of the header's bearer token; undefined without one. */
const apiKeyOf = (header: string | undefined): string | undefined => {
  if (header === undefined) return undefined
  if (header !== lastHeader) {
    const token = bearerToken(header)
    lastKey = token === undefined ? undefined : fingerprint(token)
    lastHeader = header
  }
  return lastKey
}

/** Nothing, or what settles once the entry is stored: the answer goes out after its entry is in the journal. */
const stored = (done: MaybePromise<JournalRecord>): void | Promise<unknown> =>
  done instanceof Promise ? done : undefined

/** `res` once recorded. */
const recorded = (
  c: Context<AppEnv>,
  operation: string | null,
  start: number,
  res: Response,
  transport: Transport,
): Answer => {
  const done = record(c, operation, start, res, transport)
  return done === undefined ? res : done.then(() => res)
}

/**
 * Records each request in the journal of the session it selected, with the
 * answer as it was sent (CORS headers included, hence first in the chain) or
 * as reset: status 0, no answer. Requests answered before a session was
 * selected (CORS preflights, a bad session name) are not recorded.
 */
export const journal = (operation: SpecOperation | undefined, transport: Transport, onError: OnError): Stage => {
  const id = operation?.id ?? null
  return (c, next) => {
    const start = performance.now()
    if (operation) c.set('operation', operation)
    let answer: Answer
    try {
      answer = settled(c, next, onError)
    } catch (error) {
      void record(c, id, start, undefined, transport)
      throw error
    }
    if (!(answer instanceof Promise)) return recorded(c, id, start, answer, transport)
    return answer.then(
      (res) => recorded(c, id, start, res, transport),
      (error: unknown) => {
        void record(c, id, start, undefined, transport)
        throw error
      },
    )
  }
}
