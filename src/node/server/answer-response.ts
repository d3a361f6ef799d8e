import { ServerResponse } from 'node:http'

const extraHeaders = Symbol('petstore-mock.extra-headers')

type HeaderRecord = Record<string, string | number | readonly string[]>

/**
 * The server's ServerResponse: it adds the headers the chain gave for the host to write
 * ({@link addAnswerHeader}: a request's `X-Request-Id`) to the head @hono/node-server writes.
 *
 * Why not `setHeader`: once a response has a header set that way, Node's `writeHead(status, record)`
 * sets every header of the record one by one (checking each name and value, lowercasing each) and
 * then writes them all, checking them again; about 1.5 µs of a 30 µs answer. Given in the record
 * itself, Node checks each header once. The record is the answer's own (often a frozen constant of
 * the chain), so it is copied, never written to.
 */
export class AnswerResponse extends ServerResponse {
  [extraHeaders]: [string, string][] | undefined

  override writeHead(...args: unknown[]): this {
    const extra = this[extraHeaders]
    if (extra !== undefined) {
      this[extraHeaders] = undefined
      const at = typeof args[1] === 'string' ? 2 : 1
      const given = args[at]
      if (given === undefined || given === null) args[at] = Object.fromEntries(extra)
      else if (Array.isArray(given)) for (const [name, value] of extra) this.setHeader(name, value)
      else args[at] = withHeaders(extra, given as HeaderRecord)
    }
    return (super.writeHead as (...a: unknown[]) => this)(...args)
  }
}

/** The extra headers first, then the answer's: a header the answer names too (any case) is the answer's, as with `setHeader`. */
const withHeaders = (extra: [string, string][], given: HeaderRecord): HeaderRecord => {
  const merged: HeaderRecord = {}
  for (const [name, value] of extra) if (!named(given, name)) merged[name] = value
  for (const key in given) merged[key] = given[key]!
  return merged
}

const named = (record: HeaderRecord, name: string): boolean => {
  const lower = name.toLowerCase()
  for (const key in record) if (key.length === name.length && key.toLowerCase() === lower) return true
  return false
}

/**
 * Has `response` write `name: value` in its head (false when it cannot: another ServerResponse, or a
 * head already sent). A later one of the same name replaces it, as `setHeader` does.
 */
export const addAnswerHeader = (response: ServerResponse, name: string, value: string): boolean => {
  if (response.headersSent) return false
  if (!(response instanceof AnswerResponse)) {
    response.setHeader(name, value)
    return true
  }
  const extra = (response[extraHeaders] ??= [])
  const lower = name.toLowerCase()
  const at = extra.findIndex(([given]) => given.toLowerCase() === lower)
  if (at === -1) extra.push([name, value])
  else extra[at] = [name, value]
  return true
}
