import type { JournalEntry, JournalQuery } from '../types/index.js'

/** What a recorded request must match: every field given must match. */
export interface RequestFilter {
  /** The contract operation: `listPets`, `createPet` or `getPet` (checked by the server). */
  operation?: string
  /** The status answered; 0 when the connection was reset (checked by the server). */
  status?: number
  /** The HTTP method, in any case. */
  method?: string
  /** The exact path (`/v1/pets/7`), or a pattern it must match. */
  path?: string | RegExp
  /** Request headers that must have these values (names in any case; Authorization is recorded redacted). */
  headers?: Record<string, string>
  /** Query parameters that must have these values; others may be present. */
  query?: Record<string, string | string[]>
  /** Fields the request body must have: objects match on the given keys, deeply; arrays element by element. */
  body?: unknown
}

/** A filter, or a predicate on the whole entry. */
export type RequestMatcher = RequestFilter | ((entry: JournalEntry) => boolean)

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Whether `actual` has everything `expected` has (see {@link RequestFilter.body}). */
export const containsValue = (actual: unknown, expected: unknown): boolean => {
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((item, i) => containsValue(actual[i], item))
    )
  }
  if (isPlainObject(expected)) {
    return isPlainObject(actual) && Object.entries(expected).every(([key, value]) => containsValue(actual[key], value))
  }
  return Object.is(actual, expected)
}

const sameQueryValue = (actual: string | string[] | undefined, expected: string | string[]): boolean =>
  Array.isArray(expected) ? Array.isArray(actual) && containsValue(actual, expected) : actual === expected

const matchesFilter = (entry: JournalEntry, filter: RequestFilter): boolean =>
  (filter.operation === undefined || entry.operation === filter.operation) &&
  (filter.status === undefined || entry.status === filter.status) &&
  (filter.method === undefined || entry.method === filter.method.toUpperCase()) &&
  (filter.path === undefined ||
    (typeof filter.path === 'string' ? entry.path === filter.path : filter.path.test(entry.path))) &&
  (filter.headers === undefined ||
    Object.entries(filter.headers).every(([name, value]) => entry.headers[name.toLowerCase()] === value)) &&
  (filter.query === undefined ||
    Object.entries(filter.query).every(([name, value]) => sameQueryValue(entry.query[name], value))) &&
  (filter.body === undefined || containsValue(entry.body, filter.body))

/** Whether a recorded request matches. */
export const matches = (entry: JournalEntry, matcher: RequestMatcher): boolean =>
  typeof matcher === 'function' ? matcher(entry) : matchesFilter(entry, matcher)

/** The part of a matcher the server filters on, so that less travels. */
export const serverQuery = (matcher: RequestMatcher): JournalQuery => {
  if (typeof matcher === 'function') return {}
  const query: JournalQuery = {}
  if (matcher.operation !== undefined) query.operation = matcher.operation
  if (matcher.status !== undefined) query.status = matcher.status
  return query
}

/** A matcher for messages. */
export const describeMatcher = (matcher: RequestMatcher): string =>
  typeof matcher === 'function'
    ? `the predicate ${matcher.name || '(anonymous)'}`
    : JSON.stringify(matcher, (_key, value: unknown) => (value instanceof RegExp ? String(value) : value))

const queryString = (query: JournalEntry['query']): string => {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, item)
  }
  const text = params.toString()
  return text && `?${text}`
}

/** One line per entry: `#3 GET /v1/pets/7 → 503 (getPet)`. */
export const describeEntry = (entry: JournalEntry): string =>
  `#${entry.id} ${entry.method} ${entry.path}${queryString(entry.query)} → ${entry.status}` +
  (entry.operation ? ` (${entry.operation})` : '')
