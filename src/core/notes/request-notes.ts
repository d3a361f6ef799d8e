import type { RequestContext } from '../http/stage.js'
import type { components } from '../../generated/admin-types.js'

/**
 * How an answer was shaped by the mock's controls, when it was: an override, a fault rule (with its own
 * answer: `custom`; beyond openapi.yaml: `breaksContract`), the session's latency. The type is
 * admin-openapi.yaml's `Shaping` (a union on `by`), generated: what the journal answers is what it says.
 */
export type Shaping = components['schemas']['Shaping']

declare module 'hono' {
  interface ContextVariableMap {
    /** What shaped the answer (latency, override, fault rule), for the journal. */
    shaping: Shaping[] | undefined
    /** How a proxied exchange departs from the contract (see proxy/), for the journal. */
    violations: string[] | undefined
    /** The request's trace, when the host traces (see observe/): the journal records its id. */
    trace: NotedTrace | undefined
  }
}

/** A request's trace as the journal sees it: its id, and what it is told of each control as it shapes the answer. */
export interface NotedTrace {
  /** 32 lower-case hex digits: the journal entry, its HAR entry and the log line carry it. */
  readonly traceId: string
  /** A control shaped the answer (injected latency, a fault rule, an override), now. */
  shaped(shaping: Shaping): void
}

/** Notes for the journal how a control (latency, override, fault rule) shaped the answer. */
export const noteShaping = (c: RequestContext, shaping: Shaping): void => {
  const noted = c.get('shaping')
  if (noted === undefined) c.set('shaping', [shaping])
  else noted.push(shaping)
  c.get('trace')?.shaped(shaping)
}

/** Notes the request's trace (the first stage does, when the host traces): the journal records its id, and tells it how the answer is shaped. */
export const noteTrace = (c: RequestContext, trace: NotedTrace): void => {
  c.set('trace', trace)
}

/** Notes for the journal how a proxied exchange departs from the contract (none: nothing is noted). */
export const noteViolations = (c: RequestContext, violations: string[]): void => {
  if (violations.length > 0) c.set('violations', violations)
}
