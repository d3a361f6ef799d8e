import type { components } from '../../generated/admin-types.js'
import type { resolveSchema, SchemaObject } from '../spec/schema.js'
import type { Spec } from '../spec/spec.js'
import type { objectFields } from '../spec/body-fields.js'
import type { KeptInteractions, PactSeed, ProviderState } from './pact-seed.js'

/** A matching rule list of Pact V4 (`combine` then `matchers`). */
type Rules = components['schemas']['PactRules']
const rules = (...matchers: Record<string, unknown>[]): Rules => ({ combine: 'AND', matchers })

/** A Pact V4 body. */
type PactBody = components['schemas']['PactBody']

/** One Synchronous/HTTP interaction of Pact V4: admin-openapi.yaml's `PactInteraction`, generated. */
export type PactInteraction = components['schemas']['PactInteraction']

/** GET /__admin/pact: a Pact Specification V4 document, admin-openapi.yaml's `PactDocument`, generated. */
export type PactDocument = components['schemas']['PactDocument']

/** What Authorization an interaction shows: never the token sent, a matcher for any bearer token. */
export const exampleAuthorization = 'Bearer example-token'
const bearer = rules({ match: 'regex', regex: '^Bearer .+$' })
const jsonType = rules({ match: 'regex', regex: '^application/json(;.*)?$' })

/** FNV-1a, 32 bits, in hex: a short key for an interaction, from its description. */
const hash = (text: string): string => {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return (h >>> 0).toString(16).padStart(8, '0')
}

const bodyOf = (type: string | undefined, text: string): PactBody => {
  const json = type !== undefined && /^application\/json\b/i.test(type)
  let content: unknown = text
  if (json) {
    try {
      content = JSON.parse(text)
    } catch {
      content = text
    }
  }
  return {
    content,
    contentType: (type ?? 'text/plain').split(';')[0]!.trim(),
    contentTypeHint: 'TEXT',
    encoded: false,
  }
}

/**
 * What the Pact document takes from the modules an app loads at start, passed in by pact-routes.ts: imported here,
 * they would be split by a browser bundle into small chunks of their own, shared with the start (msw's budget).
 */
export interface PactParts {
  resolveSchema: typeof resolveSchema
  objectFields: typeof objectFields
}

/** A matcher of a property's values by type: `integer` for integers, else `type`. */
const byType = (schema: SchemaObject | undefined): Record<string, unknown> =>
  schema?.type === 'integer' ? { match: 'integer' } : { match: 'type' }

/** The item schema of an operation's documented array answer, by status. */
const itemSchema = (
  spec: Spec,
  operation: string,
  status: number,
  { resolveSchema }: PactParts,
): SchemaObject | undefined => {
  const op = spec.operations.find((o) => o.id === operation)
  if (!op) return undefined
  const raw = spec.document['paths']?.[op.path]?.[op.method.toLowerCase()]?.responses?.[String(status)]
  const response = raw ? resolveSchema<any>(spec.document, raw) : undefined
  const schema = response?.content?.['application/json']?.schema
  const array = schema ? resolveSchema<SchemaObject>(spec.document, schema) : undefined
  return array?.type === 'array' ? array.items : undefined
}

/** An answer's body and matching rules: provider-chosen values matched by type. */
const responseBody = (
  spec: Spec,
  seed: PactSeed,
  parts: PactParts,
): { body?: PactBody; rules?: Record<string, Rules> } | undefined => {
  const response = seed.response
  if (response === undefined) return undefined
  if ('text' in response) return { body: bodyOf(seed.responseType, response.text) }
  const body: PactBody = {
    content: response.json,
    contentType: 'application/json',
    contentTypeHint: 'TEXT',
    encoded: false,
  }
  const matching: Record<string, Rules> = {}
  const content = response.json
  if (seed.listed !== undefined) {
    // A list: each item like the first, by type, its required fields only (others may be absent).
    const first = Array.isArray(content) ? (content[0] as Record<string, unknown> | undefined) : undefined
    if (first === undefined) return { body }
    const { properties, required } = parts.objectFields(
      spec.document,
      itemSchema(spec, seed.operation, seed.status, parts),
    )
    const filter = seed.state?.params?.['status']
    const item: Record<string, unknown> = {}
    matching['$'] = rules({ match: 'type', min: 1 })
    for (const [name, value] of Object.entries(first)) {
      if (!required.has(name) && !(name === 'status' && typeof filter === 'string')) continue
      item[name] = value
      matching[`$[*].${name}`] =
        name === 'status' && typeof filter === 'string'
          ? rules({ match: 'regex', regex: `^${filter}$` })
          : rules(byType(properties.get(name)))
    }
    body.content = [item]
    return { body, rules: matching }
  }
  if (content && typeof content === 'object' && !Array.isArray(content)) {
    const record = content as Record<string, unknown>
    // An Error body: its message is the provider's words.
    if (seed.status >= 400 && typeof record['message'] === 'string') matching['$.message'] = rules({ match: 'type' })
    // A new resource: its id is the provider's choice.
    if (seed.method === 'POST' && seed.status === 201 && 'id' in record) matching['$.id'] = rules({ match: 'integer' })
  }
  return Object.keys(matching).length === 0 ? { body } : { body, rules: matching }
}

const describe = (seed: PactSeed): string => {
  const query = seed.query?.map(([name, value]) => `${name}=${value}`).join('&')
  const target = `${seed.method} ${seed.path}${query ? `?${query}` : ''}`
  const auth = seed.authorized ? '' : ' without credentials'
  let fields = ''
  if (seed.requestBody !== undefined && seed.authorized) {
    try {
      const body: unknown = JSON.parse(seed.requestBody)
      fields =
        body && typeof body === 'object' && !Array.isArray(body)
          ? ` with {${Object.keys(body).join(', ')}}`
          : ` with a JSON ${Array.isArray(body) ? 'array' : typeof body}`
    } catch {
      fields = seed.requestBody === '' ? ' with an empty body' : ' with a body that is not JSON'
    }
  }
  const given = seed.state ? `, given ${seed.state.name}` : ''
  return `${target}${fields}${auth} → ${seed.status}${given}`
}

const interactionOf = (spec: Spec, seed: PactSeed, description: string, parts: PactParts): PactInteraction => {
  const headers: Record<string, string[]> = {}
  const headerRules: Record<string, Rules> = {}
  if (seed.authorized) {
    headers['Authorization'] = [exampleAuthorization]
    headerRules['Authorization'] = bearer
  }
  const request: PactInteraction['request'] = { method: seed.method, path: seed.path }
  if (seed.query) {
    const query: Record<string, string[]> = {}
    for (const [name, value] of seed.query) (query[name] ??= []).push(value)
    request.query = query
  }
  if (seed.requestBody !== undefined) {
    if (seed.requestType !== undefined) headers['Content-Type'] = [seed.requestType]
    if (seed.requestBody !== '') request.body = bodyOf(seed.requestType, seed.requestBody)
  }
  if (Object.keys(headers).length > 0) request.headers = headers
  if (Object.keys(headerRules).length > 0) request.matchingRules = { header: headerRules }
  const response: PactInteraction['response'] = { status: seed.status }
  const answer = responseBody(spec, seed, parts)
  if (seed.responseType !== undefined) {
    response.headers = { 'Content-Type': [seed.responseType] }
    if (/^application\/json\b/i.test(seed.responseType))
      response.matchingRules = { header: { 'Content-Type': jsonType } }
  }
  if (answer?.body) response.body = answer.body
  if (answer?.rules) response.matchingRules = { ...response.matchingRules, body: answer.rules }
  return {
    type: 'Synchronous/HTTP',
    key: hash(description),
    description,
    ...(seed.state && { providerStates: [seed.state] }),
    request,
    response,
  }
}

/** The session's kept interactions as a Pact V4 document between `consumer` and `provider`. */
export const pactDocument = (
  spec: Spec,
  kept: KeptInteractions,
  options: { consumer: string; provider: string; session: string; version: string },
  parts: PactParts,
): PactDocument => {
  const used = new Map<string, number>()
  const interactions = kept.seeds.map((seed) => {
    const base = describe(seed)
    const n = (used.get(base) ?? 0) + 1
    used.set(base, n)
    return interactionOf(spec, seed, n === 1 ? base : `${base} (${n})`, parts)
  })
  return {
    consumer: { name: options.consumer },
    provider: { name: options.provider },
    interactions,
    metadata: {
      pactSpecification: { version: '4.0' },
      'petstore-mock': { version: options.version, session: options.session, interactionsLeftOut: kept.leftOut },
    },
  }
}
