import { type RequestClock, requestClock } from './request-clock.js'
import type { MaybePromise } from '../async/maybe-promise.js'
import { type Answer, type OnError, type RequestContext, type Stage, settled } from './stage.js'

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
