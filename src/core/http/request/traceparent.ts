// W3C Trace Context §3.2: version-traceid-parentid-flags, lower-case hex. Version ff is invalid; a
// later version may append fields after a dash, version 00 may not.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/
const ZEROS = /^0+$/

/** The trace id of a `traceparent` header, when it is a valid one. */
export const traceIdOf = (traceparent: string | undefined): string | undefined => {
  if (traceparent === undefined) return undefined
  const match = TRACEPARENT.exec(traceparent.trim())
  if (!match) return undefined
  const [, version, traceId, parentId, , rest] = match
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined
  if (ZEROS.test(traceId!) || ZEROS.test(parentId!)) return undefined
  return traceId
}
