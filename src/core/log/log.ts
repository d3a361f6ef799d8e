import type { Context, MiddlewareHandler } from 'hono'
import { requestClock } from '../http/request-clock.js'

/** How request lines are written. */
export type LogFormat = 'pretty' | 'json' | 'silent'

/**
 * The structured fields of a log or audit line, written beside its message text: who asked
 * (client address, token fingerprint), for what (tenant, session, action) and how it ended
 * (outcome). Absent fields are left out of the line.
 */
export interface LogFields {
  /** The request's id (`X-Request-Id`, taken from the caller or made: request-id.ts). */
  requestId?: string
  /** The client's address as the host saw it (the Node host: the socket's peer; msw: none). */
  client?: string
  /** The tenant owning the session (tenants/); absent for a session of no tenant. */
  tenant?: string
  /** The fingerprint of the API key or admin token presented (`sha256:…`), never the secret. */
  token?: string
  /** The session the request named; absent for the default session outside /v1 lines. */
  session?: string
  /** What was asked: a /v1 operation's id, or `METHOD /__admin/path`. */
  action?: string
  /** `mcp`: an MCP tool made the admin request (issue 42; in the audit line's text too); absent for a direct one. */
  via?: string
  /** How it ended: `ok` below 400, else the `Error` body's `code` (`unauthorized`, `quota_exceeded`, `not_found`…). */
  outcome?: string
}

/** One served request, as logged. */
export interface RequestLine extends LogFields {
  method: string
  path: string
  status: number
  ms: number
  /** The W3C trace id, when the request had a span or a traceparent. */
  traceId?: string
}

/** Where the server reports requests, warnings and failures. */
export interface Logger {
  /** Absent: requests are not logged (and no stage times them). */
  request?(line: RequestLine): void
  warn(message: string): void
  error(message: string, error?: unknown): void
  /** Events worth a line (admin actions, sessions dropped), with their fields; absent: not logged. */
  info?(message: string, fields?: LogFields): void
}

const round = (ms: number): number => Math.round(ms * 10) / 10

const colour = (status: number): string => (status >= 500 ? '31' : status >= 400 ? '33' : '32')

/** Where log text goes: a Node stream, or anything with `write`. */
export interface LogSink {
  write(text: string): unknown
}

// C0 controls, DEL and the C1 controls, and the Unicode line and paragraph separators: a value
// carrying one must not start a new line or rewrite the terminal (JSON lines escape them already).
// eslint-disable-next-line no-control-regex
const controls = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g

/** `text` with every control character written as a `\uXXXX` escape: one line, no terminal codes. */
export const printable = (text: string): string =>
  text.replace(controls, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)

/** How many characters of one logged value (a path, a field) a line keeps: the rest is counted, not written. */
export const maxLoggedValue = 256

/** How many characters of one message a line keeps (an audit line cuts the path it embeds at {@link maxLoggedValue} first). */
export const maxLoggedMessage = 1024

/**
 * `text` made safe for one log line: control characters escaped ({@link printable}) and, past
 * `max` characters, cut with an ellipsis and the original length (`/a…[15012 chars]`), so one
 * request cannot write more than a bounded line however long its path.
 */
export const loggable = (text: string, max = maxLoggedValue): string => printable(cutAt(text, max))

// The first `max` characters of `text`, and how long it was when it was longer.
const cutAt = (text: string, max: number): string =>
  text.length > max ? `${text.slice(0, max)}…[${text.length} chars]` : text

// JSON lines escape C0 controls already; the C1 controls (a terminal may read U+009B as an escape)
// and the Unicode line separators are escaped too, which keeps the line valid JSON.
// eslint-disable-next-line no-control-regex
const jsonUnescaped = /[\u007f-\u009f\u2028\u2029]/g
const jsonLine = (record: object): string =>
  JSON.stringify(record).replace(jsonUnescaped, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)

// Every field of a line, each bounded and escaped.
const boundedFields = <F extends LogFields>(fields: F | undefined): F | undefined => {
  if (fields === undefined) return undefined
  const out = { ...fields }
  for (const name of fieldOrder) {
    const value = out[name]
    if (typeof value === 'string') (out as LogFields)[name] = loggable(value)
  }
  return out
}

// An error's stack, each of its lines escaped and indented: no line of it can pass for a log line.
const stackText = (error: unknown): string =>
  loggable(String((error as Error)?.stack ?? error ?? ''), 4 * maxLoggedMessage)
    .split('\\u000a')
    .map((line) => `  ${line}`)
    .join('\n')

const fieldOrder: readonly (keyof LogFields)[] = [
  'requestId',
  'client',
  'tenant',
  'token',
  'session',
  'action',
  'outcome',
]

// The pretty format's fields: `key=value`, a value with a space, a quote or an equals sign quoted as JSON.
const prettyFields = (fields: LogFields | undefined): string => {
  if (fields === undefined) return ''
  let text = ''
  for (const name of fieldOrder) {
    const value = fields[name]
    if (value === undefined) continue
    const safe = loggable(value)
    text += ` ${name}=${/^[^\s"=]+$/.test(safe) ? safe : JSON.stringify(safe)}`
  }
  return text
}

/** The message of a request line: `GET /v1/pets → 200` (the path bounded: {@link loggable}). */
export const requestMessage = (line: Pick<RequestLine, 'method' | 'path' | 'status'>): string =>
  `${line.method} ${loggable(line.path)} → ${line.status}`

/**
 * A logger writing JSON lines or coloured text to a sink; silent writes nothing. Whatever the
 * format, a line is one line: control characters in messages, paths and fields are escaped, and
 * paths and field values are cut at {@link maxLoggedValue} characters, messages at {@link maxLoggedMessage}.
 */
export const createLogger = (format: LogFormat, out?: LogSink): Logger => {
  if (format === 'silent' || !out) return { warn() {}, error() {} }
  const stamp = () => new Date().toISOString()
  const text = (message: string) => loggable(message, maxLoggedMessage)
  if (format === 'json') {
    const write = (record: object) => out.write(`${jsonLine({ time: stamp(), ...record })}\n`)
    return {
      request: (line) =>
        write({
          level: 'info',
          message: requestMessage(line),
          ...boundedFields(line),
          method: loggable(line.method),
          path: loggable(line.path),
          ...(line.traceId !== undefined && { traceId: loggable(line.traceId) }),
          ms: round(line.ms),
        }),
      warn: (message) => write({ level: 'warn', message: text(message) }),
      info: (message, fields) => write({ level: 'info', message: text(message), ...boundedFields(fields) }),
      error: (message, error) =>
        write({
          level: 'error',
          message: text(message),
          error: cutAt(String((error as Error)?.stack ?? error), 4 * maxLoggedMessage),
        }),
    }
  }
  return {
    request: (line) =>
      out.write(
        `${stamp()} ${loggable(line.method).padEnd(6)} ${loggable(line.path)} \x1b[${colour(line.status)}m${line.status}\x1b[0m ${round(line.ms)} ms${line.session ? ` [${loggable(line.session)}]` : ''}${prettyFields({ ...line, session: undefined })}\n`,
      ),
    warn: (message) => out.write(`${stamp()} \x1b[33mWARN\x1b[0m ${text(message)}\n`),
    info: (message, fields) => out.write(`${stamp()} INFO ${text(message)}${prettyFields(fields)}\n`),
    error: (message, error) => out.write(`${stamp()} \x1b[31mERROR\x1b[0m ${text(message)}\n${stackText(error)}\n`),
  }
}

/**
 * One log line per request: method, path, status and milliseconds, the request's trace id
 * when `traceId` reads one, and the fields `fields` reads once the answer is there (request id,
 * client, tenant, token, session, action, outcome: the composition root knows where each lives).
 */
export const requestLog = (
  logger: Logger & Required<Pick<Logger, 'request'>>,
  traceId: (c: Context) => string | undefined = () => undefined,
  fields: (c: Context) => LogFields = () => ({}),
): MiddlewareHandler =>
  async function requestLog(c, next) {
    const clock = requestClock(c)
    await next()
    const trace = traceId(c)
    logger.request({
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: clock.elapsedMs(),
      ...(trace !== undefined && { traceId: trace }),
      ...fields(c),
    })
  }
