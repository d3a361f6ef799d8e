/** What `new Error(message)` gives inside {@link withoutStack}: an object with no stack, not an Error. */
interface StacklessError {
  name: 'Error'
  message: string
  stack: undefined
}

/**
 * Stands in for the global `Error` constructor: `new Error(message)` makes a plain object, so V8
 * captures no stack for it (called as a constructor, a function's returned object replaces `this`).
 */
function Stackless(message?: unknown): StacklessError {
  return { name: 'Error', message: message === undefined ? '' : String(message), stack: undefined }
}

/**
 * Runs `make` with no `Error` made: the global `Error` is a stand-in whose instances are plain
 * objects without a stack (and Error.stackTraceLimit is 0, for errors made otherwise), both
 * restored after, whatever happens.
 *
 * For: msw's handlers record where they were declared from `new Error().stack`
 * (handler.info.callFrame, for its own messages). Every stack V8 captures makes it parse again each
 * lazily compiled function on it for its source positions, the caller's module included: at an
 * app's page start that is the whole entry chunk. Formatting `.stack` did that (6 to 12 ms in
 * Chromium; Error.stackTraceLimit 0 avoided it), and so does the detailed stack that V8 captures at
 * every `new Error()` while DevTools or a test driver (Playwright, Puppeteer) is attached, whatever
 * stackTraceLimit says: 18 to 300 ms, median 33, on a first visit in a fresh profile under Playwright
 * (docs/internals/performance.md). With no Error made there is no stack to capture. Our handler's
 * call frame would only name petstore-mock's own file.
 */
export const withoutStack = <T>(make: () => T): T => {
  const scope = globalThis as { Error: ErrorConstructor }
  const RealError = scope.Error
  const limit = RealError.stackTraceLimit
  scope.Error = Stackless as unknown as ErrorConstructor
  RealError.stackTraceLimit = 0
  try {
    return make()
  } finally {
    scope.Error = RealError
    RealError.stackTraceLimit = limit
  }
}
