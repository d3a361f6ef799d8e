import { queryParams } from '../http/request/query.js'
import type { BuiltAnswer } from '../http/respond.js'
import type { RequestContext } from '../http/stage.js'
import type { SpecOperation } from '../spec/spec.js'
import type { InteractionNote, PactSeed } from './pact-seed.js'
import { stateOfAnswer } from './answer-state.js'
// The variables read here: the body and its text.
import type {} from '../body/read-body.js'

/** Query parameters that are the mock's own controls, never part of an interaction. */
const controls = new Set(['__code', '__delay'])

/**
 * Whether an answer goes into the pact: not what the mock's controls made
 * (fault rules and Prefer: the caller checks; 429 of the rate limit; 410 of a
 * sunset on the mock clock; 5xx), nor a HEAD.
 */
export const pactWorthy = (method: string, status: number): boolean =>
  method !== 'HEAD' && status < 500 && status !== 429 && status !== 410

const typeOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value)

/** A JSON value's shape: its type, and an object's fields with their types (sorted; one level: a body may nest deep). */
const shapeOf = (value: unknown): string => {
  if (typeOf(value) !== 'object') return typeOf(value)
  const record = value as Record<string, unknown>
  return `{${Object.keys(record)
    .sort()
    .map((key) => `${key}:${typeOf(record[key])}`)
    .join(',')}}`
}

/**
 * Where the first item of a JSON array text ends (the index after it), read
 * without parsing the rest: strings (with their escapes) and nesting are
 * followed; -1 when the text is not an array of at least one item.
 */
export const firstItemEnd = (text: string): number => {
  let i = text.indexOf('[')
  if (i === -1 || text.slice(0, i).trim() !== '') return -1
  let depth = 0
  let inString = false
  let started = false
  for (i++; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (inString) {
      if (ch === 92)
        i++ // a backslash: the next character is escaped
      else if (ch === 34) inString = false
      continue
    }
    if (ch === 34) inString = true
    else if (ch === 123 || ch === 91) depth++
    else if (ch === 125 || ch === 93) {
      if (depth === 0) return started ? i : -1 // the array's own `]`: one item only
      depth--
    } else if (ch === 44 && depth === 0) return i
    if (ch > 32) started = true
  }
  return -1
}

/**
 * A JSON answer as kept: parsed, or of an array only its first item (an
 * array of one or none): a page of 100 pets is not parsed to keep one.
 */
const parseKept = (text: string): unknown => {
  const end = text.trimStart().startsWith('[') ? firstItemEnd(text) : -1
  if (end !== -1) {
    const first = parse(text.slice(text.indexOf('[') + 1, end))
    if (first !== undefined) return [first]
  }
  return parse(text)
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * The interaction of an answered request: its key (`base`: operation,
 * status, the input classes the request fell in and whether a list was
 * empty; here the id it read and a refused body's shape) and how to make
 * its seed. A 401's base is its operation alone, whatever was sent.
 */
export const noteInteraction = (
  c: RequestContext,
  operation: SpecOperation,
  status: number,
  built: BuiltAnswer,
  base: string,
): InteractionNote => {
  let key = base
  if (status !== 401) {
    // Read only where the route has it: a lookup in hono's match otherwise wasted on every list.
    const petId = operation.routePath.includes(':petId') ? c.req.param('petId') : undefined
    if (petId !== undefined) key += ` id=${petId}`
    if (status >= 400 && c.get('bodyText') !== undefined) {
      const body = c.get('body')
      key += ` body=${body === undefined ? 'text' : shapeOf(body)}`
    }
  }
  return new RequestInteraction(key, c, operation, status, built)
}

/**
 * A note whose seed is made from the request only when asked: one object per request, where a
 * closure took three (most requests' interactions are known already, and their seed never made).
 */
class RequestInteraction implements InteractionNote {
  constructor(
    readonly key: string,
    private readonly c: RequestContext,
    private readonly operation: SpecOperation,
    private readonly status: number,
    private readonly built: BuiltAnswer,
  ) {}

  seed(): PactSeed {
    return seedOf(this.c, this.operation, this.status, this.built)
  }
}

const seedOf = (c: RequestContext, operation: SpecOperation, status: number, built: BuiltAnswer): PactSeed => {
  const seed: PactSeed = {
    operation: operation.id,
    method: c.req.method,
    path: c.req.path,
    authorized: status !== 401,
    status,
  }
  const query: [string, string][] = []
  const params = queryParams(c)
  for (const name of Object.keys(params)) {
    if (controls.has(name)) continue
    for (const value of params[name]!) query.push([name, value])
  }
  if (query.length > 0) seed.query = query
  const bodyText = c.get('bodyText')
  if (bodyText !== undefined && status !== 401) {
    const type = c.req.header('Content-Type')
    if (type !== undefined) seed.requestType = type
    seed.requestBody = bodyText
  }
  const type = built.headers['content-type']
  if (type !== undefined) seed.responseType = type
  let json: unknown
  if (built.text !== null && built.text !== '') {
    json = built.json ? parseKept(built.text) : undefined
    if (Array.isArray(json)) seed.listed = json.length
    seed.response = json === undefined ? { text: built.text } : { json }
  }
  const filter = params['status']?.[0]
  const enumOf = operation.parameters.find((p) => p.name === 'status' && p.in === 'query')?.schema.enum
  const state = stateOfAnswer(operation.id, status, {
    ...(c.req.param('petId') !== undefined && { petId: c.req.param('petId') }),
    ...(filter !== undefined && enumOf?.includes(filter) && { statusFilter: filter }),
    json: seed.listed === undefined ? json : (json as unknown[]),
    ...(seed.listed !== undefined && { listed: seed.listed }),
  })
  if (state !== undefined) seed.state = state
  return seed
}
