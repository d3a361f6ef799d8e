import type { Shaping } from '../notes/request-notes.js'
import { type RequestClock, requestClock } from '../http/request-clock.js'
import { noteTrace } from '../notes/request-notes.js'
import type { SpecOperation } from '../spec/spec.js'
import type { Answer, RequestContext, Stage } from '../http/stage.js'
import type { SessionName, SessionReader } from '../state/session-reader.js'
import type { AnswerSource, RequestObserver, RequestTrace, RequestTracer } from './observer.js'

/** What shaped an answer: the first control the journal noted, else the contract or the deployment. */
export const answerSource = (shapedBy: readonly Shaping[] | undefined, proxied: boolean): AnswerSource => {
  if (shapedBy !== undefined) {
    for (const shaping of shapedBy) {
      if (shaping.by === 'override') return 'prefer'
      if (shaping.by === 'fault') return 'rule'
    }
  }
  return proxied ? 'proxy' : 'contract'
}

const reset = (shapedBy: readonly Shaping[] | undefined): boolean =>
  shapedBy !== undefined && shapedBy.some((s) => s.by === 'fault' && s.fault === 'connection_reset')

/** What {@link observe} tells. */
export interface ObserveStageOptions {
  requests: RequestObserver | undefined
  tracer: RequestTracer | undefined
  /** The route as the contract writes it (`/v1/pets/{petId}`); null outside the operations. */
  route: string | null
  /** With --proxy: an answer no control shaped came from the deployment. */
  proxied: boolean
  /** The session the request selected, once it has (its name goes on the span). */
  session: SessionReader<SessionName | undefined>
}

/**
 * The first stage of a `/v1` chain when the host observes requests: times the whole chain (the
 * journal included), starts the request's trace before anything runs (its id then reaches the
 * journal and the log), and once the answer is there tells the observer its operation, status,
 * source and duration, and ends the trace. Undefined (no stage at all) when there is neither an
 * observer nor a tracer. Synchronous when the rest of the chain is.
 */
export const observe = (operation: SpecOperation | undefined, options: ObserveStageOptions): Stage | undefined => {
  const { requests, tracer, route, proxied, session } = options
  if (requests === undefined && tracer === undefined) return undefined
  const id = operation?.id ?? null

  const done = (c: RequestContext, status: number, clock: RequestClock, trace: RequestTrace | undefined): void => {
    const shapedBy = c.get('shaping')
    const source = answerSource(shapedBy, proxied)
    const sent = reset(shapedBy) ? 0 : status
    requests?.answered(id, sent, source, clock.elapsedMs() / 1000)
    trace?.end({
      status: sent,
      source,
      session: session(c)?.name,
      shapedBy,
      prefer: source === 'prefer' ? c.req.header('Prefer') : undefined,
    })
  }

  return (c, next) => {
    const clock = requestClock(c)
    const trace =
      tracer === undefined
        ? undefined
        : tracer.start({
            method: c.req.method,
            path: c.req.path,
            operation: id,
            route,
            header: (name) => c.req.header(name),
          })
    if (trace !== undefined) noteTrace(c, trace)
    let answer: Answer
    try {
      answer = next(c)
    } catch (error) {
      done(c, 0, clock, trace)
      throw error
    }
    if (!(answer instanceof Promise)) {
      done(c, answer.status, clock, trace)
      return answer
    }
    return answer.then(
      (res) => {
        done(c, res.status, clock, trace)
        return res
      },
      (error: unknown) => {
        done(c, 0, clock, trace)
        throw error
      },
    )
  }
}
