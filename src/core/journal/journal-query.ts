import { badRequest } from '../http/errors.js'
import type { JournalQuery } from './journal.js'

/** A canonical decimal integer: no sign, no leading zero. */
export const CANONICAL = /^(0|[1-9][0-9]*)$/

const integerQuery = (value: string | undefined, name: string, min: number, max: number): number | undefined => {
  if (value === undefined) return undefined
  if (!CANONICAL.test(value) || Number(value) < min || Number(value) > max) {
    throw badRequest(`${name} must be an integer between ${min} and ${max} (got ${JSON.stringify(value)}).`)
  }
  return Number(value)
}

/** The filters of GET /requests (and /requests.har) from the query string; 400 naming a bad one. */
export const journalQuery = (query: Record<string, string>, operations: readonly string[]): JournalQuery => {
  const { operation, status, limit } = query
  if (operation !== undefined && !operations.includes(operation)) {
    throw badRequest(`operation must be one of ${operations.join(', ')} (got ${JSON.stringify(operation)}).`)
  }
  const result: JournalQuery = {}
  if (operation !== undefined) result.operation = operation
  const statusValue = integerQuery(status, 'status', 0, 599)
  if (statusValue !== undefined) result.status = statusValue
  const limitValue = integerQuery(limit, 'limit', 1, 1_000_000)
  if (limitValue !== undefined) result.limit = limitValue
  return result
}
