/**
 * A value now, or once a store that lives elsewhere (Redis) has answered. The
 * in-memory store answers now: a request that waits for nothing is then
 * answered without a promise (see http/stage.ts), which the hot path's
 * figures depend on. Consume with {@link whenReady}, never with `await` on
 * the request path.
 */
export type MaybePromise<T> = T | Promise<T>

/**
 * `then` for a value that may not be a promise: `use(value, a, b)`, at once
 * when it is not one. `a` and `b` are handed to `use` rather than captured by
 * it, so that a stage can pass a function made once: a request that waits
 * for nothing then allocates no closure on its way (the hot path's figures).
 */
export function whenReady<T, R>(value: MaybePromise<T>, use: (value: T) => MaybePromise<R>): MaybePromise<R>
export function whenReady<T, R, A>(
  value: MaybePromise<T>,
  use: (value: T, a: A) => MaybePromise<R>,
  a: A,
): MaybePromise<R>
export function whenReady<T, R, A, B>(
  value: MaybePromise<T>,
  use: (value: T, a: A, b: B) => MaybePromise<R>,
  a: A,
  b: B,
): MaybePromise<R>
export function whenReady<T, R, A, B>(
  value: MaybePromise<T>,
  use: (value: T, a?: A, b?: B) => MaybePromise<R>,
  a?: A,
  b?: B,
): MaybePromise<R> {
  return value instanceof Promise ? value.then((ready: T) => use(ready, a, b)) : use(value, a, b)
}
