import { fingerprintDigits, fingerprintPattern } from '../http/request/key-fingerprint.js'
import { bodyFieldNames } from '../spec/body-fields.js'
import type { Spec } from '../spec/spec.js'

/** A value a rule may expect of a field of the JSON request body: a JSON scalar. */
export type BodyValue = string | number | boolean | null

/**
 * What a rule matches on beyond the operation and pet id: one client (its API
 * key, by value or by fingerprint; a header such as User-Agent), a query
 * parameter, a field of the JSON body. Every condition given must hold; each
 * compares exactly (names of headers case-insensitively).
 */
export interface RuleWhen {
  /** The bearer token as sent, or its fingerprint (see http/request/key-fingerprint.ts). */
  apiKey?: string | { fingerprint: string }
  /** Request headers by name (any case): the value as received, repeated ones joined by `, `. */
  headers?: Record<string, string>
  /** Query parameters the contract defines, by name: one of the values sent. */
  query?: Record<string, string>
  /** Top-level fields of the JSON request body: equal JSON scalars (`1` and `1.0` are equal). */
  body?: Record<string, BodyValue>
}

/** Most conditions of each kind (headers, query, body) a rule holds. */
export const maxWhenEntries = 20
/** Longest expected value (an API key, a header, a query value, a body string), in characters. */
export const maxWhenValueChars = 1024

// RFC 9110 §5.6.2: a header name is a token.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

const checkString = (value: unknown, field: string): string | undefined => {
  if (typeof value !== 'string') return `${field} must be a string`
  if (value.length > maxWhenValueChars) return `${field} must be at most ${maxWhenValueChars} characters`
  return undefined
}

const checkEntries = (
  map: Record<string, unknown> | undefined,
  field: string,
  each: (name: string, value: unknown) => string | undefined,
): string | undefined => {
  if (map === undefined) return undefined
  const names = Object.keys(map)
  if (names.length === 0) return `${field} must name at least one ${field === 'when.body' ? 'field' : 'name'}`
  if (names.length > maxWhenEntries) return `${field} may hold at most ${maxWhenEntries} entries`
  for (const name of names) {
    const problem = each(name, map[name])
    if (problem) return problem
  }
  return undefined
}

/** The operations a rule can apply to: the one it names, getPet for a petId, else every one. */
const operationsOf = (spec: Spec, operation: string | undefined, petId: unknown) =>
  spec.operations.filter((op) => (operation ?? (petId !== undefined ? 'getPet' : op.id)) === op.id)

/**
 * Checks `when.apiKey` (any value): a sentence naming the field, or undefined. The schema (RuleWhen's
 * `oneOf`) refuses the same values; this says which of its two forms was meant and what is wrong with it.
 */
export const checkApiKey = (key: unknown): string | undefined => {
  if (key === undefined) return undefined
  if (typeof key === 'object' && key !== null && !Array.isArray(key)) {
    const { fingerprint, ...rest } = key as { fingerprint?: unknown }
    const extra = Object.keys(rest)[0]
    if (extra !== undefined) return `when.apiKey.${extra} is not a known field`
    if (typeof fingerprint !== 'string' || !fingerprintPattern.test(fingerprint)) {
      return `when.apiKey.fingerprint must be sha256: and ${fingerprintDigits} lower-case hexadecimal digits (as the journal shows it)`
    }
    return undefined
  }
  const problem = checkString(key, 'when.apiKey')
  if (problem) return `${problem}: the key, or { "fingerprint": "sha256:<${fingerprintDigits} hex digits>" }`
  if (!/^\S+$/.test(key as string)) return 'when.apiKey must be a key without spaces'
  return undefined
}

/**
 * Checks a rule's `when` (its shape checked by the schema): a sentence naming
 * the field, or undefined. A condition no request can meet is refused, as an
 * unknown operation is: a query parameter or a body field the contract does
 * not define for the operation(s) the rule applies to.
 */
export const checkWhen = (
  when: RuleWhen,
  spec: Spec,
  rule: { operation?: string; petId?: number },
): string | undefined => {
  const ops = operationsOf(spec, rule.operation, rule.petId)
  const apiKey = checkApiKey(when.apiKey)
  if (apiKey) return apiKey
  const seen = new Set<string>()
  const headers = checkEntries(when.headers, 'when.headers', (name, value) => {
    if (!TOKEN.test(name)) return `when.headers: ${JSON.stringify(name)} is not a header name`
    const lower = name.toLowerCase()
    if (seen.has(lower)) return `when.headers names ${lower} twice (names are case-insensitive)`
    seen.add(lower)
    return checkString(value, `when.headers.${name}`)
  })
  if (headers) return headers
  const queryNames = new Set(ops.flatMap((op) => op.parameters.filter((p) => p.in === 'query').map((p) => p.name)))
  const query = checkEntries(when.query, 'when.query', (name, value) => {
    if (!queryNames.has(name)) {
      const known = [...queryNames]
      const where = rule.operation ?? (rule.petId !== undefined ? 'getPet' : 'any operation')
      return `when.query.${name} is not a query parameter of ${where}${known.length > 0 ? ` (known: ${known.join(', ')})` : ''}`
    }
    return checkString(value, `when.query.${name}`)
  })
  if (query) return query
  const withBody = ops.filter((op) => op.requestBody !== undefined)
  const fields = new Set(withBody.flatMap((op) => bodyFieldNames(spec, op.id)))
  return checkEntries(when.body, 'when.body', (name, value) => {
    if (!fields.has(name)) {
      const where = rule.operation ?? 'any operation'
      if (withBody.length === 0) return `when.body applies to operations with a request body, not ${where}`
      return `when.body.${name} is not a field of the request body of ${where} (fields: ${[...fields].join(', ')})`
    }
    if (value === null || typeof value === 'boolean') return undefined
    if (typeof value === 'number') {
      return Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value))
        ? undefined
        : `when.body.${name} must be a number JavaScript holds exactly`
    }
    if (typeof value === 'string') return checkString(value, `when.body.${name}`)
    return `when.body.${name} must be a string, a number, true, false or null`
  })
}

/**
 * The one rule language of every host, as facts: a rule's conditions and a
 * request's properties are each written as the same strings (`["h","user-agent","app/1"]`),
 * and a rule matches when every one of its strings is among the request's.
 * The in-memory store compares them in JavaScript, the Redis store in its Lua
 * script (one SISMEMBER-like lookup per condition), on strings made here, so
 * both decide alike.
 */
const fact = (kind: string, ...parts: string[]): string => JSON.stringify([kind, ...parts])

/** The facts a rule's `when` requires, in a fixed order. */
export const whenFacts = (when: RuleWhen): string[] => {
  const facts: string[] = []
  const key = when.apiKey
  if (typeof key === 'string') facts.push(fact('k', key))
  else if (key !== undefined) facts.push(fact('f', key.fingerprint))
  for (const [name, value] of Object.entries(when.headers ?? {})) facts.push(fact('h', name.toLowerCase(), value))
  for (const [name, value] of Object.entries(when.query ?? {})) facts.push(fact('q', name, value))
  for (const [name, value] of Object.entries(when.body ?? {})) facts.push(fact('b', name, JSON.stringify(value)))
  return facts
}

const cached = new WeakMap<object, readonly string[]>()

/** {@link whenFacts} of a stored rule, made once per rule object. */
export const ruleFacts = (rule: { when?: RuleWhen }): readonly string[] => {
  if (rule.when === undefined) return []
  let facts = cached.get(rule)
  if (facts === undefined) {
    facts = whenFacts(rule.when)
    cached.set(rule, facts)
  }
  return facts
}

/** What a request offers to rules' conditions. */
export interface RequestProperties {
  /** The bearer token, when one was sent. */
  apiKey?: { key: string; fingerprint: string }
  /** Lower-case names, repeated headers joined by `, `. */
  headers: Readonly<Record<string, string>>
  query: Readonly<Record<string, readonly string[]>>
  /** The JSON request body, when it was read and is an object. */
  body?: unknown
}

const isBodyValue = (value: unknown): value is BodyValue =>
  value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number'

/** Every fact a request offers (see {@link whenFacts}). */
export const requestFacts = (request: RequestProperties): string[] => {
  const facts: string[] = []
  if (request.apiKey) facts.push(fact('k', request.apiKey.key), fact('f', request.apiKey.fingerprint))
  for (const [name, value] of Object.entries(request.headers)) facts.push(fact('h', name, value))
  for (const [name, values] of Object.entries(request.query)) for (const v of values) facts.push(fact('q', name, v))
  const body = request.body
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    for (const [name, value] of Object.entries(body)) {
      // A number JavaScript cannot hold exactly (kept as a LosslessNumber) equals no rule's number.
      if (isBodyValue(value)) facts.push(fact('b', name, JSON.stringify(value)))
    }
  }
  return facts
}

/**
 * A request's facts, made the first time a rule with conditions asks for them
 * (most rules have none, and most requests meet no rule).
 */
export class RequestFacts {
  readonly #read: () => string[]
  #list: string[] | undefined
  #set: Set<string> | undefined

  constructor(read: () => string[]) {
    this.#read = read
  }

  /** Every fact, in a fixed order (what the Redis store sends its script). */
  list(): readonly string[] {
    return (this.#list ??= this.#read())
  }

  has(fact: string): boolean {
    return (this.#set ??= new Set(this.list())).has(fact)
  }
}

/** Whether every fact `rule` requires is one the request offers. */
export const whenHolds = (rule: { when?: RuleWhen }, facts: RequestFacts | undefined): boolean => {
  const required = ruleFacts(rule)
  if (required.length === 0) return true
  if (facts === undefined) return false
  return required.every((f) => facts.has(f))
}
