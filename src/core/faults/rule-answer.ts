import { isLosslessNumber } from 'lossless-json'
import { isJsonType } from '../http/json.js'
import { contractDrifts, deprecationDrifts, type ObservedAnswer } from '../spec/answer-drifts.js'
import { describeSchemaError } from '../spec/messages.js'
import type { Spec, SpecOperation } from '../spec/spec.js'

/**
 * A fault rule's own answer (`status` with `headers` and/or `body`), as
 * staging or a gateway in front of it answered: an HTML 502 page, a 200 whose
 * list lacks a field. Sent as written: the mock adds only the headers every
 * answer of the request carries (deprecation, rate limit, CORS).
 */
export interface RuleAnswerFields {
  status?: number
  /** Answer headers; a Content-Type here says what `body` is. */
  headers?: Record<string, string>
  /** JSON (any value but a string: sent as JSON), or a string: sent as its text, byte for byte. */
  body?: unknown
  /** The answer may break openapi.yaml (any status, a body the schema refuses, another content type). */
  breaksContract?: boolean
}

/** Statuses the mock injects on any operation besides those it documents (overrides and status rules). */
export const injectedStatuses = [429, 500, 502, 503, 504] as const

/** Longest body of a rule's own answer, in characters as sent (JSON as serialised). */
export const maxAnswerChars = 32_768
/** Most headers of a rule's own answer. */
export const maxAnswerHeaders = 20
/** Longest header value of a rule's own answer, in characters. */
export const maxAnswerHeaderChars = 4096

// Headers that describe the connection or the framing, which the host writes: a rule cannot set them.
const hopByHop = new Set([
  'connection',
  'content-length',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
// RFC 9110 §5.5: visible ASCII, obs-text (0x80-0xFF), spaces and tabs inside; what Node and web Headers send.
const FIELD_VALUE = /^(?:[\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)?$/
const NO_BODY = new Set([204, 205, 304])

/** The path of a number in `value` that JavaScript cannot hold exactly (kept as a LosslessNumber by the admin API's parser). */
const inexactNumber = (value: unknown, path: string): string | undefined => {
  if (value === null || typeof value !== 'object') return undefined
  if (isLosslessNumber(value)) return path
  for (const [key, item] of Object.entries(value)) {
    const found = inexactNumber(item, `${path}.${key}`)
    if (found !== undefined) return found
  }
  return undefined
}

/** Whether a rule gives its own answer (headers or a body) rather than the mock's `Error`. */
export const hasOwnAnswer = (rule: RuleAnswerFields): boolean => rule.body !== undefined || rule.headers !== undefined

/** The answer as it is sent: status, headers (lower-case names, the content type included), text (null: no body). */
export interface PreparedAnswer {
  status: number
  headers: Readonly<Record<string, string>>
  text: string | null
}

/** The text of a rule's body: a string as it is, anything else as JSON. */
const bodyText = (body: unknown): string | null =>
  body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body)

/**
 * The answer a rule with its own answer sends: a string body is text
 * (`text/plain; charset=utf-8` unless the rule's headers say otherwise),
 * any other body JSON (`application/json` unless they say otherwise).
 */
export const prepareAnswer = (rule: RuleAnswerFields & { status: number }): PreparedAnswer => {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(rule.headers ?? {})) headers[name.toLowerCase()] = value
  const text = bodyText(rule.body)
  if (text !== null && headers['content-type'] === undefined) {
    headers['content-type'] = typeof rule.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json'
  }
  return { status: rule.status, headers, text }
}

/**
 * Checks what the schema cannot: headers a response may carry, a body within
 * {@link maxAnswerChars} and one the status may have. A sentence naming the
 * field, or undefined.
 */
export const checkAnswer = (rule: RuleAnswerFields & { fault?: string }): string | undefined => {
  if (!hasOwnAnswer(rule)) {
    return rule.breaksContract ? 'breaksContract applies to a rule with its own answer (body or headers)' : undefined
  }
  if (rule.fault !== undefined) return `${rule.body !== undefined ? 'body' : 'headers'} cannot be combined with fault`
  if (rule.status === undefined) return 'status is required with body or headers: the status of the answer'
  const headers = Object.entries(rule.headers ?? {})
  if (headers.length > maxAnswerHeaders) return `headers may hold at most ${maxAnswerHeaders} headers`
  const seen = new Set<string>()
  for (const [name, value] of headers) {
    if (!TOKEN.test(name) || name.length > 128) return `headers: ${JSON.stringify(name)} is not a header name`
    const lower = name.toLowerCase()
    if (hopByHop.has(lower)) return `headers.${name} is written by the server, not by a rule`
    if (seen.has(lower)) return `headers names ${lower} twice (names are case-insensitive)`
    seen.add(lower)
    if (typeof value !== 'string') return `headers.${name} must be a string`
    if (value.length > maxAnswerHeaderChars) return `headers.${name} must be at most ${maxAnswerHeaderChars} characters`
    if (!FIELD_VALUE.test(value))
      return `headers.${name} must be a header value: no line breaks, control characters, characters beyond U+00FF or surrounding spaces`
  }
  const inexact = inexactNumber(rule.body, 'body')
  if (inexact !== undefined) {
    return `${inexact} is a number JavaScript cannot hold exactly; to send its digits as they are, give the body as text with Content-Type application/json`
  }
  const text = bodyText(rule.body)
  if (text !== null) {
    if (NO_BODY.has(rule.status)) return `body cannot be sent with status ${rule.status}, which has none`
    if (text.length > maxAnswerChars) {
      return `body must be at most ${maxAnswerChars} characters as sent (got ${text.length})`
    }
  }
  return undefined
}

const observed = (answer: PreparedAnswer): ObservedAnswer => {
  const text = answer.text ?? ''
  const seen: ObservedAnswer = { status: answer.status, headers: new Headers(answer.headers), text }
  if (isJsonType(answer.headers['content-type'])) {
    try {
      seen.json = JSON.parse(text)
    } catch (error) {
      seen.jsonError = (error as Error).message
    }
  }
  return seen
}

/**
 * How an answer breaks what the contract says `operation` answers: a
 * sentence, or undefined when it keeps the contract. It keeps it with a
 * status the operation documents and the body documented for it, or with a
 * status the mock itself injects on any operation (429, 500, 502, 503, 504,
 * and 410 on an operation with a sunset: see mock-control.ts) and an `Error`
 * body whose `status` is the answer's. The headers the mock adds to every
 * answer of the operation (deprecation) are not the rule's to keep.
 */
export const contractBreak = (spec: Spec, operation: SpecOperation, answer: PreparedAnswer): string | undefined => {
  const seen = observed(answer)
  const { status } = answer
  const id = operation.id
  if (operation.statuses.includes(status)) {
    if (!operation.responseValidator(status) && seen.text !== '') {
      return `${id}: ${status} has no body in the contract`
    }
    const own = new Set(deprecationDrifts(operation, seen))
    return contractDrifts(spec, operation, seen, status).find((drift) => !own.has(drift))
  }
  const injected: readonly number[] = operation.sunset ? [...injectedStatuses, 410] : injectedStatuses
  if (!injected.includes(status)) {
    return `${id}: ${status} is a status the contract does not document (${operation.statuses.join(', ')})`
  }
  const type = seen.headers.get('content-type')
  if (!isJsonType(type)) {
    return `${id}: ${status} body is ${type === null ? 'without Content-Type' : `Content-Type ${type}`}, an error is application/json Error`
  }
  if (seen.jsonError !== undefined) return `${id}: ${status} body is not JSON`
  const validate = spec.componentValidator('Error')
  if (!validate(seen.json))
    return `${id}: ${status} body is not an Error: ${describeSchemaError(validate.errors![0]!, 'the body')}`
  const bodyStatus = (seen.json as { status: unknown }).status
  if (bodyStatus !== status) return `${id}: Error.status is ${String(bodyStatus)} on a ${status} answer`
  return undefined
}
