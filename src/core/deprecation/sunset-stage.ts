import { goneError } from '../spec/operation-lifecycle.js'
import type { SpecOperation } from '../spec/spec.js'
import type { Answer, Next, RequestContext, Stage } from '../http/stage.js'
import { whenReady } from '../async/maybe-promise.js'
import type { SessionReader } from '../http/request/session-reader.js'
import type { ClockSlice } from '../time/clock-slice.js'

/**
 * From the operation's `x-sunset` instant on, by the session's mock clock,
 * answers 410 Gone instead of running it. Runs after authentication, so a
 * 401 still wins, and before validation: a removed operation is gone
 * whatever its parameters.
 */
export const sunsetGate = (operation: SpecOperation, sunset: Date, session: SessionReader<ClockSlice>): Stage => {
  const at = sunset.getTime()
  const gate = (now: number, c: RequestContext, next: Next): Answer => {
    if (now >= at) throw goneError(operation)
    return next(c)
  }
  return (c, next) => whenReady(session(c).now(), gate, c, next)
}
