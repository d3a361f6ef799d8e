import type { Context, MiddlewareHandler } from 'hono'
import { requestClock } from '../http/request-clock.js'

/** How request lines are written. */
export type LogFormat = 'pretty' | 'json' | 'silent'

/** One served request, as logged. */
export interface RequestLine {
  method: string
  path: string
  status: number
  ms: number
  session?: string
  /** The W3C trace id, when the request had a span or a traceparent. */
  traceId?: string
}

/** Where the server reports requests, warnings and failures. */
export interface Logger {
  /** Absent: requests are not logged (and no stage times them). */
  request?(line: RequestLine): void
  warn(message: string): void
  error(message: string, error?: unknown): void
  /** Events worth a line (admin actions, sessions dropped); absent: not logged. */
  info?(message: string): void
}

const round = (ms: number): number => Math.round(ms * 10) / 10

const colour = (status: number): string => (status >= 500 ? '31' : status >= 400 ? '33' : '32')

/** Where log text goes: a Node stream, or anything with `write`. */
export interface LogSink {
  write(text: string): unknown
}

/** A logger writing JSON lines or coloured text to a sink; silent writes nothing. */
export const createLogger = (format: LogFormat, out?: LogSink): Logger => {
  if (format === 'silent' || !out) return { warn() {}, error() {} }
  const stamp = () => new Date().toISOString()
  if (format === 'json') {
    const write = (record: object) => out.write(`${JSON.stringify({ time: stamp(), ...record })}\n`)
    return {
      request: (line) => write({ level: 'info', ...line, ms: round(line.ms) }),
      warn: (message) => write({ level: 'warn', message }),
      info: (message) => write({ level: 'info', message }),
      error: (message, error) => write({ level: 'error', message, error: String((error as Error)?.stack ?? error) }),
    }
  }
  return {
    request: ({ method, path, status, ms, session }) =>
      out.write(
        `${stamp()} ${method.padEnd(6)} ${path} \x1b[${colour(status)}m${status}\x1b[0m ${round(ms)} ms${session ? ` [${session}]` : ''}\n`,
      ),
    warn: (message) => out.write(`${stamp()} \x1b[33mWARN\x1b[0m ${message}\n`),
    info: (message) => out.write(`${stamp()} INFO ${message}\n`),
    error: (message, error) =>
      out.write(`${stamp()} \x1b[31mERROR\x1b[0m ${message}\n${String((error as Error)?.stack ?? error ?? '')}\n`),
  }
}

/**
 * One log line per request: method, path, status and milliseconds, and the request's trace id
 * when `traceId` reads one (the composition root knows where traces live).
 */
export const requestLog = (
  logger: Logger & Required<Pick<Logger, 'request'>>,
  traceId: (c: Context) => string | undefined = () => undefined,
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
    })
  }
