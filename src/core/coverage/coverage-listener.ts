import type { ContextVariableMap } from 'hono'
import { queryParams } from '../http/request/query.js'
import { type BuiltAnswer, builtAnswer } from '../http/respond.js'
import { answerAsBuilt, type AnswerListener, type RequestContext } from '../http/stage.js'
import { noteInteraction, pactWorthy } from './pact-record.js'
import type { SessionReader } from '../http/request/session-reader.js'
import type { Combination, OperationCoverage } from './coverage-model.js'
import type { CoverageSlice } from './coverage-slice.js'
// The variables read here: the body and its text, and how the controls shaped the answer.
import type {} from '../body/read-body.js'
import type {} from '../notes/request-notes.js'

/** What the coverage listener works with besides its operation's model. */
export interface CoverageOptions {
  /** The request's session, once selected (undefined before: nothing is counted). */
  session: SessionReader<CoverageSlice | undefined>
}

/** Whether a control (fault rule, Prefer or `__code`) made the answer: it forced the status, or a fault. */
const injectedBy = (shaping: ContextVariableMap['shaping'], status: number): boolean => {
  if (shaping === undefined) return false
  for (const s of shaping) {
    if (s.by !== 'latency' && (s.status === status || (s.by === 'fault' && s.fault !== undefined))) return true
  }
  return false
}

/** Whether a fault rule's own answer, marked `breaksContract`, made the answer: not the provider's behaviour. */
const beyondBy = (shaping: ContextVariableMap['shaping']): boolean => {
  if (shaping === undefined) return false
  for (const s of shaping) if (s.by === 'fault' && s.breaksContract) return true
  return false
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The number of a request's combination: its status, whether it was
 * injected, the class of each input, whether its answer is an empty list.
 * Arithmetic only: most requests find their combination made already.
 */
const combinationCode = (
  c: RequestContext,
  model: OperationCoverage,
  status: number,
  injected: boolean,
  beyond: boolean,
  empty: boolean,
): number => {
  let code = status * 4 + (beyond ? 2 : injected ? 1 : 0)
  if (model.query.length > 0) {
    const query = queryParams(c)
    for (const dimension of model.query) {
      code = code * (dimension.counters.length + 1) + dimension.classify(query[dimension.name]?.[0]) + 1
    }
  }
  if (model.body.length > 0) {
    const body = c.get('body')
    const object = isObject(body)
    for (const dimension of model.body) code = code * 3 + (object ? dimension.classify(dimension.name in body) + 1 : 0)
  }
  if (!injected) for (const dimension of model.path) code = code * 3 + dimension.classify(status) + 1
  return code * 2 + (empty ? 1 : 0)
}

/** Makes a combination the first time a request falls in it (the same classes, as counter names). */
const combinationOf = (
  c: RequestContext,
  model: OperationCoverage,
  status: number,
  injected: boolean,
  beyond: boolean,
  empty: boolean,
): Combination => {
  // A breaksContract answer is counted on a row of its own: it covers no documented response.
  const counters = beyond ? [model.beyondCounter(status)] : [model.responseCounter(status)]
  if (injected && !beyond) counters.push(model.injectedCounter(status))
  const inputs: string[] = []
  const query = queryParams(c)
  for (const dimension of model.query) {
    const index = dimension.classify(query[dimension.name]?.[0])
    if (index >= 0) inputs.push(dimension.counters[index]!)
  }
  const body = c.get('body')
  if (isObject(body))
    for (const dimension of model.body) inputs.push(dimension.counters[dimension.classify(dimension.name in body)]!)
  if (!injected) {
    for (const dimension of model.path) {
      const index = dimension.classify(status)
      if (index >= 0) inputs.push(dimension.counters[index]!)
    }
  }
  counters.push(...inputs)
  // A 401 is one interaction per operation, whatever was sent.
  const key =
    status === 401
      ? `${model.operation.id} 401`
      : `${model.operation.id} ${status} ${inputs.join(',')}${empty ? ' empty' : ''}`
  return { counters: Object.freeze(counters), key }
}

/** An answer's parts read from the Response (a copy): one built by a hono middleware (a 401), or a deployment's. */
const partsOf = (res: Response, sent: Response): Promise<BuiltAnswer> => {
  const headers: Record<string, string> = {}
  res.headers.forEach((value, name) => (headers[name] = value))
  const json = /^application\/json\b/i.test(headers['content-type'] ?? '')
  // The body from the answer sent: a copy made by CORS took over the stream of the one it copied.
  return sent
    .clone()
    .text()
    .then((text) => ({ headers, text, json }))
}

/**
 * Counts one answer in the session it selected (none selected: nothing
 * counted); a promise only when the answer's parts must be read from it.
 */
const count = (
  c: RequestContext,
  model: OperationCoverage,
  sent: Response,
  options: CoverageOptions,
): void | Promise<void> => {
  const res = answerAsBuilt(sent)
  const session = options.session(c)
  if (session === undefined) return
  const status = res.status
  const shaping = c.get('shaping')
  const beyond = beyondBy(shaping)
  const injected = beyond || injectedBy(shaping, status)
  const built = builtAnswer(res)
  const empty = built !== undefined && built.text === '[]'
  const code = combinationCode(c, model, status, injected, beyond, empty)
  const combination = model.combination(code, () => combinationOf(c, model, status, injected, beyond, empty))
  if (injected || !pactWorthy(c.req.method, status)) return session.countCoverage(combination.counters)
  if (built !== undefined) {
    return session.countCoverage(
      combination.counters,
      noteInteraction(c, model.operation, status, built, combination.key),
    )
  }
  return partsOf(res, sent).then(
    (parts) =>
      session.countCoverage(combination.counters, noteInteraction(c, model.operation, status, parts, combination.key)),
    () => session.countCoverage(combination.counters),
  )
}

/**
 * Counts every answer of an operation for contract coverage (GET
 * /__admin/coverage): its status, whether a control injected it, the input
 * classes the request fell in; and notes its interaction for the pact (GET
 * /__admin/pact). Reads the answer as built, before CORS merged its headers
 * (`answerAsBuilt`). An answer given before a session was selected is not
 * counted, nor a connection reset (no answer). Counting never changes an
 * answer: what could not be counted is not.
 */
export const coverageListener = (model: OperationCoverage, options: CoverageOptions): AnswerListener => ({
  answered: (c, res) => (res === undefined ? undefined : counted(c, model, res, options)),
})

const ignore = (): void => {}

const counted = (
  c: RequestContext,
  model: OperationCoverage,
  res: Response,
  options: CoverageOptions,
): void | Promise<void> => {
  let done: void | Promise<void>
  try {
    done = count(c, model, res, options)
  } catch {
    return
  }
  return done === undefined ? undefined : done.then(ignore, ignore)
}
