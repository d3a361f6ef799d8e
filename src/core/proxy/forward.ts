import { ApiError } from '../http/errors.js'
import { isJsonType, parseJsonExact } from '../http/json.js'
import type { ObservedAnswer } from '../spec/answer-drifts.js'
import type { Spec, SpecOperation } from '../spec/spec.js'
import type { Next, RequestContext } from '../http/stage.js'
import type { Transport } from '../http/transport.js'
import { answerViolations, requestViolations } from './exchange-violations.js'
import type { ProxyStats } from './proxy-stats.js'
import { noteViolations } from '../notes/request-notes.js'
// The body variables, set here for the journal.
import type {} from '../body/read-body.js'
import { noScriptPolicy } from '../http/no-script.js'

/** What {@link forwardTo} needs. */
export interface ForwardOptions {
  spec: Spec
  /** The deployment's base URL, base path included (`https://staging.example.com/v1`). */
  upstream: string
  transport: Transport
  bodyLimit: number
  /** How long the deployment has to answer, body included. */
  timeoutMs: number
  /** Add `X-Contract-Violations: n` to each answer (opt-in: answers are otherwise unchanged). */
  flagViolations: boolean
  stats: ProxyStats
  /** Keeps the pets of an answer the contract accepts (a list, or one pet) in the request's session. */
  keepPets(c: RequestContext, body: unknown): Promise<void>
}

// Hop-by-hop (RFC 9110 §7.6.1) and what fetch sets itself; X-Mock-Session and the mock's controls are the mock's own.
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'accept-encoding',
  'x-mock-session',
])
const NOT_RETURNED = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'trailer',
  'upgrade',
  'content-length',
  'content-encoding',
])

const CONTROL_QUERY = /^__(code|delay)$/

const targetOf = (c: RequestContext, upstream: string, basePath: string): string => {
  const url = new URL(c.req.url)
  for (const name of [...url.searchParams.keys()]) if (CONTROL_QUERY.test(name)) url.searchParams.delete(name)
  // c.req.path, not the URL's: a session prefix (/sessions/<name>) is not the deployment's.
  return upstream + c.req.path.slice(basePath.length) + url.search
}

const requestHeaders = (headers: Headers): Headers => {
  const forwarded = new Headers()
  headers.forEach((value, name) => {
    if (!NOT_FORWARDED.has(name)) forwarded.append(name, value)
  })
  // The answer's bytes pass through unchanged only if fetch has nothing to decode.
  forwarded.set('accept-encoding', 'identity')
  return forwarded
}

// The deployment's answer is served on the mock's origin: it runs no script there (http/no-script.ts).
// Its own policy is kept beside the mock's (a browser enforces both), never instead of it.
const answerHeaders = (headers: Headers): Headers => {
  const returned = new Headers()
  headers.forEach((value, name) => {
    if (!NOT_RETURNED.has(name)) returned.append(name, value)
  })
  returned.append('content-security-policy', noScriptPolicy)
  returned.set('x-content-type-options', 'nosniff')
  return returned
}

const utf8 = new TextDecoder()

const observed = (res: Response, bytes: Uint8Array): ObservedAnswer => {
  const text = utf8.decode(bytes)
  const answer: ObservedAnswer = { status: res.status, headers: res.headers, text }
  if (isJsonType(res.headers.get('content-type'))) {
    const parsed = parseJsonExact(text)
    if (parsed.ok) answer.json = parsed.value
    else answer.jsonError = parsed.message
  }
  return answer
}

const readRequest = async (
  c: RequestContext,
  options: ForwardOptions,
): Promise<{ bytes: Uint8Array; text: string } | undefined> => {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return undefined
  const bytes = await options.transport.readBody(c, options.bodyLimit)
  if (bytes === 'too_large') {
    throw new ApiError(413, `The request body exceeds ${options.bodyLimit} bytes; it was not forwarded.`)
  }
  if (bytes === null) return undefined
  const text = utf8.decode(bytes)
  c.set('bodyText', text)
  return { bytes, text }
}

const failure = (error: unknown, upstream: string, timeoutMs: number): ApiError => {
  const origin = new URL(upstream).origin
  if ((error as Error).name === 'TimeoutError') {
    return new ApiError(504, `The deployment at ${origin} did not answer within ${timeoutMs} ms.`)
  }
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  return new ApiError(
    502,
    `The deployment at ${origin} could not be reached (${cause?.code ?? cause?.message ?? (error as Error).message}).`,
  )
}

/**
 * The end of a proxied chain: forwards the request (method, path below the
 * base path, query without the mock's `__code`/`__delay`, headers with
 * Authorization, body) to the deployment and returns its answer unchanged,
 * body byte for byte; validates both against the contract, noting the
 * violations for the journal; keeps the pets answered in the session. No
 * answer in `timeoutMs`: 504; unreachable: 502 (both `Error` bodies).
 */
export const forwardTo =
  (options: ForwardOptions) =>
  (operation: SpecOperation | undefined): Next =>
  async (c) => {
    const body = await readRequest(c, options)
    const parsed = body && body.text !== '' ? parseJsonExact(body.text) : undefined
    if (parsed?.ok) c.set('body', parsed.value)
    const violations = requestViolations(c, operation, body && parsed && { text: body.text, parsed })
    let res: Response
    let bytes: Uint8Array
    try {
      res = await fetch(targetOf(c, options.upstream, options.spec.basePath), {
        method: c.req.method,
        headers: requestHeaders(c.req.raw.headers),
        ...(body && { body: body.bytes }),
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs),
      })
      bytes = new Uint8Array(await res.arrayBuffer())
    } catch (error) {
      options.stats.count(operation?.id, violations.length)
      noteViolations(c, violations)
      throw failure(error, options.upstream, options.timeoutMs)
    }
    const answer = observed(res, bytes)
    const inAnswer = c.req.method === 'HEAD' ? [] : answerViolations(options.spec, operation, answer)
    violations.push(...inAnswer)
    options.stats.count(operation?.id, violations.length)
    noteViolations(c, violations)
    if (inAnswer.length === 0 && res.status < 300 && answer.json !== undefined) {
      await options.keepPets(c, answer.json)
    }
    const headers = answerHeaders(res.headers)
    if (options.flagViolations) headers.set('x-contract-violations', String(violations.length))
    const empty = bytes.byteLength === 0 || c.req.method === 'HEAD' || [204, 304].includes(res.status)
    return new Response(empty ? null : bytes, { status: res.status, statusText: res.statusText, headers })
  }
