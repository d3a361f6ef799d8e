import { goneError } from './lifecycle.js'
import type { SpecOperation } from '../spec/spec.js'
import type { Stage } from '../http/stage.js'

/**
 * From the operation's `x-sunset` instant on, by the session's mock clock,
 * answers 410 Gone instead of running it. Runs after authentication, so a
 * 401 still wins, and before validation: a removed operation is gone
 * whatever its parameters.
 */
export const sunsetGate = (operation: SpecOperation, sunset: Date): Stage => {
  const at = sunset.getTime()
  return (c, next) => {
    const now = c.get('session').now()
    if (now instanceof Promise) {
      return now.then((n) => {
        if (n >= at) throw goneError(operation)
        return next(c)
      })
    }
    if (now >= at) throw goneError(operation)
    return next(c)
  }
}
