import { badRequest } from '../http/errors.js'
import { instantExpectation, parseInstant } from '../time/instant.js'
import type { JournalQuery } from './journal.js'

/** A canonical decimal integer: no sign, no leading zero. */
export const CANONICAL = /^(0|[1-9][0-9]*)$/

/** Longest server-side wait of GET /__admin/requests (`wait=`), in ms: a minute, like the longest injected delay. */
export const maxWaitMs = 60_000

const METHOD = /^[A-Z]+$/
const DURATION = /^(0|[1-9][0-9]*)(ms|s)$/

const integerQuery = (value: string | undefined, name: string, min: number, max: number): number | undefined => {
  if (value === undefined) return undefined
  if (!CANONICAL.test(value) || Number(value) < min || Number(value) > max) {
    throw badRequest(`${name} must be an integer between ${min} and ${max} (got ${JSON.stringify(value)}).`)
  }
  return Number(value)
}

const instantQuery = (value: string | undefined, name: string): number | undefined => {
  if (value === undefined) return undefined
  const at = parseInstant(value)
  if (at === undefined) throw badRequest(`${name} must be ${instantExpectation} (got ${JSON.stringify(value)}).`)
  return at
}

/**
 * The filters of GET /requests (and /requests.har) from the query string: operation, status,
 * method, path, since, until, after (the cursor) and limit; 400 naming a bad one. Unknown names
 * are refused before this (admin/known-query.ts).
 */
export const journalQuery = (query: Record<string, string>, operations: readonly string[]): JournalQuery => {
  const { operation, status, limit, method, path, since, until, after } = query
  if (operation !== undefined && !operations.includes(operation)) {
    throw badRequest(`operation must be one of ${operations.join(', ')} (got ${JSON.stringify(operation)}).`)
  }
  if (method !== undefined && !METHOD.test(method)) {
    throw badRequest(`method must be an HTTP method in capitals, such as POST (got ${JSON.stringify(method)}).`)
  }
  if (path !== undefined && !path.startsWith('/')) {
    throw badRequest(`path must be a path starting with /, such as /v1/pets (got ${JSON.stringify(path)}).`)
  }
  const result: JournalQuery = {}
  if (operation !== undefined) result.operation = operation
  if (method !== undefined) result.method = method
  if (path !== undefined) result.path = path
  const statusValue = integerQuery(status, 'status', 0, 599)
  if (statusValue !== undefined) result.status = statusValue
  const sinceValue = instantQuery(since, 'since')
  if (sinceValue !== undefined) result.since = sinceValue
  const untilValue = instantQuery(until, 'until')
  if (untilValue !== undefined) result.until = untilValue
  const afterValue = integerQuery(after, 'after', 0, Number.MAX_SAFE_INTEGER)
  if (afterValue !== undefined) result.after = afterValue
  const limitValue = integerQuery(limit, 'limit', 1, 1_000_000)
  if (limitValue !== undefined) result.limit = limitValue
  return result
}

/** What GET /requests waits for: at least `count` entries passing the filters, for at most `ms`. */
export interface JournalWait {
  count: number
  ms: number
}

/**
 * `wait` (`500ms`, `10s`; at most a minute) and `count` (default 1) of GET /requests; undefined
 * without `wait`. `count` alone is refused: it says what to wait for, and nothing waits.
 */
export const journalWait = (query: Record<string, string>): JournalWait | undefined => {
  const { wait } = query
  const count = integerQuery(query['count'], 'count', 1, 1_000_000)
  if (wait === undefined) {
    if (count !== undefined) throw badRequest('count is what wait waits for: give wait too (e.g. wait=10s).')
    return undefined
  }
  const match = DURATION.exec(wait)
  const ms = match ? Number(match[1]) * (match[2] === 's' ? 1000 : 1) : NaN
  if (!(ms <= maxWaitMs)) {
    throw badRequest(`wait must be a duration of at most 60s, in ms or s, such as 10s (got ${JSON.stringify(wait)}).`)
  }
  return { count: count ?? 1, ms }
}
