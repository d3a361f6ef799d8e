import type { Context } from 'hono'

declare module 'hono' {
  interface ContextVariableMap {
    /** The request's two moments, shared by the stages that time it: see {@link requestClock}. */
    requestClock: RequestClock
  }
}

/**
 * A request's start and end on `performance.now()`'s clock, each read once. The log, the metrics'
 * stage and the journal each time the same request; on a virtual machine a clock read goes through
 * the kernel and costs 0.1 to 0.2 µs, so reading it twice per stage was a measurable share of a
 * request (docs/internals/performance.md). The end is the moment the first stage asked for it: the
 * innermost timer (the journal, when the answer is there), which the outer ones then share.
 */
export class RequestClock {
  readonly start = performance.now()
  #end: number | undefined

  /** Milliseconds from the start to the end (read now if no stage has read it yet). */
  elapsedMs(): number {
    return (this.#end ??= performance.now()) - this.start
  }
}

/** The request's clock: started by the first stage that asks (the outermost timer). */
export const requestClock = (c: Context): RequestClock => {
  let clock = c.get('requestClock')
  if (clock === undefined) c.set('requestClock', (clock = new RequestClock()))
  return clock
}
