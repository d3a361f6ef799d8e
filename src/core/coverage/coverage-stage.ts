import type { Context } from 'hono'
import type { AppEnv } from '../app-env.js'
import { queryParams } from '../http/request-query.js'
import { type BuiltAnswer, builtAnswer } from '../http/respond.js'
import type { Shaping } from '../journal/journal.js'
import { noteInteraction, pactWorthy } from '../pact/pact-record.js'
import type { Answer, Next, OnError, Stage } from '../http/stage.js'
import { settled } from '../http/stage.js'
import type { OperationCoverage } from './coverage-model.js'

/** Whether a control (fault rule, Prefer or `__code`) made the answer: it forced the status, or a fault. */
const injectedBy = (shaping: Shaping[] | undefined, status: number): boolean => {
  if (shaping === undefined) return false
  for (const s of shaping) {
    if (s.by !== 'latency' && (s.status === status || (s.by === 'fault' && s.fault !== undefined))) return true
  }
  return false
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** An answer's parts read from the Response (a copy): one built by a hono middleware (a 401), or a deployment's. */
const partsOf = (res: Response): Promise<BuiltAnswer> => {
  const headers: Record<string, string> = {}
  res.headers.forEach((value, name) => (headers[name] = value))
  const json = /^application\/json\b/i.test(headers['content-type'] ?? '')
  return res
    .clone()
    .text()
    .then((text) => ({ headers, text, json }))
}

/**
 * Counts one answer in the session it selected (none selected: nothing
 * counted); a promise only when the answer's parts must be read from it.
 */
const count = (c: Context<AppEnv>, model: OperationCoverage, res: Response): void | Promise<void> => {
  const session = c.get('session')
  if (session === undefined) return
  const status = res.status
  const injected = injectedBy(c.get('shaping'), status)
  const counters = [model.responseCounter(status)]
  if (injected) counters.push(model.injectedCounter(status))
  const inputsFrom = counters.length
  if (model.query.length > 0) {
    const query = queryParams(c)
    for (const { name, classify } of model.query) {
      const counter = classify(query[name]?.[0])
      if (counter !== undefined) counters.push(counter)
    }
  }
  if (model.body.length > 0) {
    const body = c.get('body')
    if (isObject(body)) for (const { name, classify } of model.body) counters.push(classify(name in body))
  }
  if (!injected) {
    for (const { classify } of model.path) {
      const counter = classify(status)
      if (counter !== undefined) counters.push(counter)
    }
  }
  if (injected || !pactWorthy(c.req.method, status)) return session.countCoverage(counters)
  const inputs = counters.slice(inputsFrom)
  const built = builtAnswer(res)
  if (built !== undefined)
    return session.countCoverage(counters, noteInteraction(c, model.operation, status, built, inputs))
  return partsOf(res).then(
    (parts) => session.countCoverage(counters, noteInteraction(c, model.operation, status, parts, inputs)),
    () => session.countCoverage(counters),
  )
}

/**
 * Counts every answer of an operation for contract coverage (GET
 * /__admin/coverage): its status, whether a control injected it, the input
 * classes the request fell in; and notes its interaction for the pact (GET
 * /__admin/pact). After CORS in the chain (the answer as built), before the
 * session's selection (what that refuses is answered before any session, so
 * not counted). Answers nothing itself; a connection reset is no answer and
 * is not counted.
 */
export const coverage =
  (model: OperationCoverage, onError: OnError): Stage =>
  (c, next: Next): Answer => {
    const answer = settled(c, next, onError)
    if (answer instanceof Promise) return answer.then((res) => counted(c, model, res))
    return counted(c, model, answer)
  }

const counted = (c: Context<AppEnv>, model: OperationCoverage, res: Response): Answer => {
  let done: void | Promise<void>
  try {
    done = count(c, model, res)
  } catch {
    // Counting never changes an answer: what could not be counted is not.
    return res
  }
  return done === undefined
    ? res
    : done.then(
        () => res,
        () => res,
      )
}
