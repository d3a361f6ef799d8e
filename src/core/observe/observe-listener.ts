import { noteTrace, type Shaping } from '../notes/request-notes.js'
import type { SpecOperation } from '../spec/spec.js'
import type { AnswerListener, RequestContext } from '../http/stage.js'
import type { SessionName, SessionReader } from '../http/request/session-reader.js'
import type { AnswerSource, RequestObserver, RequestTrace, RequestTracer } from './observer.js'
import { mayBeRefusal, refusalOfBuilt } from './refusal-reason.js'

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

/** What {@link observeListener} tells. */
export interface ObserveListenerOptions {
  requests: RequestObserver | undefined
  tracer: RequestTracer | undefined
  /** The route as the contract writes it (`/v1/pets/{petId}`); null outside the operations. */
  route: string | null
  /** With --proxy: an answer no control shaped came from the deployment. */
  proxied: boolean
  /** The session the request selected, once it has (its name goes on the span). */
  session: SessionReader<SessionName | undefined>
  /**
   * The tenant of the session the request names (`''`: none), read only when tenants are
   * configured; absent without a tenants file (every request is then of no tenant).
   */
  tenantOf?: (c: RequestContext) => string
}

/**
 * Tells the host's observer and tracer about each request of a chain: starts its trace as the
 * request begins (its id then reaches the journal and the log), and once the answer is there
 * (the last listener: the journal's time included) tells the observer its operation, status,
 * source and duration, and ends the trace. Undefined (no listener at all) when there is neither
 * an observer nor a tracer.
 */
export const observeListener = (
  operation: SpecOperation | undefined,
  options: ObserveListenerOptions,
): AnswerListener | undefined => {
  const { requests, tracer, route, proxied, session, tenantOf } = options
  if (requests === undefined && tracer === undefined) return undefined
  const id = operation?.id ?? null
  return {
    begin:
      tracer === undefined
        ? undefined
        : (c) => {
            const trace = tracer.start({
              method: c.req.method,
              path: c.req.path,
              operation: id,
              route,
              header: (name) => c.req.header(name),
            })
            if (trace !== undefined) noteTrace(c, trace)
          },
    answered: (c, res, clock) => {
      const shapedBy = c.get('shaping')
      const source = answerSource(shapedBy, proxied)
      const sent = res === undefined || reset(shapedBy) ? 0 : res.status
      if (requests !== undefined) {
        requests.answered(id, sent, source, clock.elapsedMs() / 1000)
        // A refusal is the mock's own answer: a rule's or an override's 429 is what was asked for.
        const refused =
          source === 'contract' && res !== undefined && mayBeRefusal(sent) ? refusalOfBuilt(res) : undefined
        if (tenantOf !== undefined || refused !== undefined) {
          const tenant = tenantOf?.(c) ?? ''
          if (tenantOf !== undefined) requests.tenantAnswered?.(tenant, sent)
          if (refused !== undefined) requests.refused?.(tenant, refused)
        }
      }
      // The trace noted is the one `begin` started: nothing else notes one.
      ;(c.get('trace') as RequestTrace | undefined)?.end({
        status: sent,
        source,
        session: session(c)?.name,
        shapedBy,
        prefer: source === 'prefer' ? c.req.header('Prefer') : undefined,
      })
    },
  }
}
