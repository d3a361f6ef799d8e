/**
 * Runs `make` with stack traces off (Error.stackTraceLimit 0), restored after, whatever happens.
 *
 * For: msw's handlers record where they were declared from `new Error().stack` (handler.info.callFrame,
 * for its own messages). Formatting a stack makes V8 parse again every lazily compiled function on it
 * for its source positions, the caller's module included: at an app's page start that is the whole
 * entry chunk (6 to 12 ms in Chromium for the consumer page of test/browser/first-moment.test.ts, most
 * of createHandlers' first call). Our handler's call frame would only name petstore-mock's own file.
 */
export const withoutStack = <T>(make: () => T): T => {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    return make()
  } finally {
    Error.stackTraceLimit = limit
  }
}
