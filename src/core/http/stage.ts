import type { Context, MiddlewareHandler } from 'hono'
import type { BlankEnv } from 'hono/types'
import type { MaybePromise } from '../async/maybe-promise.js'
import { type RequestClock, requestClock } from './request-clock.js'

/**
 * A request's hono context. Its variables are hono's `ContextVariableMap`:
 * the module that sets one declares it there, as hono's own middleware do
 * (`declare module 'hono'`). Read them with `c.get()`: hono's `c.var`
 * copies every variable into a new object on each access.
 */
export type RequestContext = Context<BlankEnv>

/** An answer, now, or once something was waited for (a body, a delay). */
export type Answer = Response | Promise<Response>

/** The rest of a chain, as a stage sees it. */
export type Next = (c: RequestContext) => Answer

/**
 * One step of a public route's chain (Prism's plain stages): it answers, or
 * throws an error for the app's error handler to answer, or returns
 * `next(c)`, possibly after looking at the request and before looking at
 * the answer. Unlike a hono middleware it is asynchronous only when it waits
 * for something: a request that waits for nothing is answered without a
 * promise, so that hono runs no `compose` (each route is one handler) and
 * @hono/node-server writes the answer at once.
 */
export type Stage = (c: RequestContext, next: Next) => Answer

/** Maps anything thrown to its answer; what it rethrows (a connection reset) escapes the chain. */
export type OnError = (error: Error, c: RequestContext) => Response

/**
 * The stages in order, then `last`, as one function, built once per route so
 * that a request allocates nothing to go through it. `undefined` entries
 * (stages an operation does not need) are left out.
 */
export const chain = (stages: readonly (Stage | undefined)[], last: Next): Next =>
  stages.reduceRight<Next>((next, stage) => (stage ? (c) => stage(c, next) : next), last)

const asError = (thrown: unknown): Error => (thrown instanceof Error ? thrown : new Error(String(thrown)))

/** `next(c)`, with an error thrown on the way already answered: for stages that look at the answer. */
export const settled = (c: RequestContext, next: Next, onError: OnError): Answer => {
  let answer: Answer
  try {
    answer = next(c)
  } catch (error) {
    return onError(asError(error), c)
  }
  // A `catch`, which whenReady (async/maybe-promise.ts) is not: an answer given now has nothing to catch.
  return answer instanceof Promise ? answer.catch((error: unknown) => onError(asError(error), c)) : answer
}

/**
 * A stage as a hono middleware (the reverse of {@link fromMiddleware}), for
 * the admin routes, which hono composes: the rest of the hono chain is the
 * stage's `next`, and what the stage answers is the middleware's answer. A
 * step is written once, as a stage, whichever kind of route runs it.
 */
export const toMiddleware =
  (stage: Stage): MiddlewareHandler =>
  async (c, next) => {
    const res = await stage(c, async () => {
      await next()
      return c.res
    })
    if (res !== c.res) c.res = res
  }

// Carried by an answer a hono middleware (CORS) made by merging its headers into a copy of the
// chain's: the answer as the chain built it, for a listener that counts what the mock answered.
const innerKey = Symbol('answer as built')

type WithInner = Response & { [innerKey]?: Response }

/** The answer the chain built, before a hono middleware merged headers into a copy of it; else `res`. */
export const answerAsBuilt = (res: Response): Response => (res as WithInner)[innerKey] ?? res

/** Notes on `outer`, a middleware's copy of `inner`, the answer it was made from (see {@link answerAsBuilt}). */
export const markCopyOf = (outer: Response, inner: Response): Response => {
  if (outer !== inner) (outer as WithInner)[innerKey] = answerAsBuilt(inner)
  return outer
}

/**
 * A hono middleware (cors, bearerAuth) as a stage. Asynchronous, as every
 * hono middleware is. The answer of the rest goes through `c.res`, so that
 * what the middleware set on the response (CORS headers) is merged into it
 * by hono, as in a hono chain; the copy hono makes then
 * knows the answer it was made from ({@link answerAsBuilt}).
 */
export const fromMiddleware =
  (middleware: MiddlewareHandler, onError: OnError): Stage =>
  (c, next) => {
    let inner: Response | undefined
    return Promise.resolve(
      middleware(c, async () => {
        c.res = inner = await settled(c, next, onError)
      }),
    ).then((res) => {
      const out = res ?? c.res
      return inner === undefined ? out : markCopyOf(out, inner)
    })
  }

/**
 * What watches the answers of a chain: one listener of the answer event, as msw's lifecycle
 * emitter has listeners of `response:mocked` rather than a wrapper per watcher. The journal,
 * contract coverage and the metrics each are one (journal/, coverage/, observe/).
 */
export interface AnswerListener {
  /** Before the rest of the chain runs (a trace starts, so that what follows can note it). */
  begin?(c: RequestContext): void
  /**
   * The answer as sent (CORS headers merged), or undefined when none was (a reset connection).
   * What it returns is waited for before the answer goes out (the journal's entry is stored
   * first); the next listener is told once it has settled.
   */
  answered(c: RequestContext, res: Response | undefined, clock: RequestClock): MaybePromise<unknown>
}

/**
 * The first stage of a chain when anything listens: starts the request's clock, tells each
 * listener that the request begins, runs the rest with its errors answered (`settled`), then
 * tells each listener the answer, in order. Undefined (no stage at all) without listeners.
 * Synchronous when the rest of the chain and every listener are.
 */
export const answerEvent = (
  listeners: readonly (AnswerListener | undefined)[],
  onError: OnError,
): Stage | undefined => {
  const all = listeners.filter((listener): listener is AnswerListener => listener !== undefined)
  if (all.length === 0) return undefined
  const beginners = all.filter((listener) => listener.begin !== undefined)

  /** Tells the listeners from the `i`-th on, each once the one before has settled; then the answer. */
  const tell = (c: RequestContext, res: Response, clock: RequestClock, i: number): Answer => {
    for (; i < all.length; i++) {
      const told = all[i]!.answered(c, res, clock)
      // Not whenReady: four values go on, and a listener that answers now (the in-memory store) takes no closure.
      if (told instanceof Promise) {
        const next = i + 1
        return told.then(() => tell(c, res, clock, next))
      }
    }
    return res
  }

  /** No answer was sent (a reset connection escapes the chain): each listener is told, none waited for. */
  const unanswered = (c: RequestContext, clock: RequestClock): void => {
    for (const listener of all) void listener.answered(c, undefined, clock)
  }

  return (c, next) => {
    const clock = requestClock(c)
    for (const listener of beginners) listener.begin!(c)
    let answer: Answer
    try {
      answer = settled(c, next, onError)
    } catch (error) {
      unanswered(c, clock)
      throw error
    }
    if (!(answer instanceof Promise)) return tell(c, answer, clock, 0)
    // Not whenReady: a rejected answer (a reset connection) is told too, as none.
    return answer.then(
      (res) => tell(c, res, clock, 0),
      (error: unknown) => {
        unanswered(c, clock)
        throw error
      },
    )
  }
}
