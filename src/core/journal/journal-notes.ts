import type { RequestContext } from '../http/stage.js'
import type { Shaping } from './journal.js'

declare module 'hono' {
  interface ContextVariableMap {
    /** What shaped the answer (latency, override, fault rule), for the journal. */
    shaping: Shaping[] | undefined
    /** How a proxied exchange departs from the contract (see proxy/), for the journal. */
    violations: string[] | undefined
  }
}

/** Notes for the journal how a control (latency, override, fault rule) shaped the answer. */
export const noteShaping = (c: RequestContext, shaping: Shaping): void => {
  const noted = c.get('shaping')
  if (noted === undefined) c.set('shaping', [shaping])
  else noted.push(shaping)
}

/** Notes for the journal how a proxied exchange departs from the contract (none: nothing is noted). */
export const noteViolations = (c: RequestContext, violations: string[]): void => {
  if (violations.length > 0) c.set('violations', violations)
}
