import { readFileSync } from 'node:fs'
import { load } from 'js-yaml'
import { describe, expect, it } from 'vitest'
import { buildTools } from '../../../src/node/mcp/tool-runner.js'
import { adminDocument } from '../../../src/generated/admin-document.js'
import { specDocument } from '../../../src/generated/contract.js'

// Issue 42: every tool's input schema against the route it drives, read here from admin-openapi.yaml and
// openapi.yaml themselves (not the generated modules the server reads), every $ref resolved on both sides.
const adminYaml = load(readFileSync(new URL('../../../admin-openapi.yaml', import.meta.url), 'utf8')) as any
const contractYaml = load(readFileSync(new URL('../../../openapi.yaml', import.meta.url), 'utf8')) as any
const tools = buildTools(adminDocument, specDocument)

/** The issue's tools, each with its route (operationId), how its body is given, its path parameters' names. */
const routes: Record<
  string,
  { op: string; doc: 'admin' | 'contract'; body?: 'spread' | string; rename?: Record<string, string> }
> = {
  sessions_list: { op: 'listSessions', doc: 'admin' },
  session_create: { op: 'createSession', doc: 'admin', rename: { name: 'session' } },
  session_delete: { op: 'dropSession', doc: 'admin', rename: { name: 'session' } },
  state_get: { op: 'getState', doc: 'admin' },
  state_replace: { op: 'replaceState', doc: 'admin', body: 'spread' },
  seed: { op: 'seedPets', doc: 'admin', body: 'spread' },
  rules_list: { op: 'listFaultRules', doc: 'admin' },
  rule_set: { op: 'putFaultRule', doc: 'admin', body: 'rule', rename: { rule: 'name' } },
  rule_delete: { op: 'removeFaultRule', doc: 'admin', rename: { rule: 'name' } },
  rules_clear: { op: 'clearFaultRules', doc: 'admin' },
  timelines_list: { op: 'listTimelines', doc: 'admin' },
  timeline_get: { op: 'getTimeline', doc: 'admin' },
  timeline_set: { op: 'putTimeline', doc: 'admin', body: 'timeline' },
  timeline_delete: { op: 'removeTimeline', doc: 'admin' },
  clock_get: { op: 'getClock', doc: 'admin' },
  clock_set: { op: 'setClock', doc: 'admin', body: 'spread' },
  rate_limit_set: { op: 'setRateLimit', doc: 'admin', body: 'spread' },
  journal_read: { op: 'listRequests', doc: 'admin' },
  explain_request: { op: 'listRequests', doc: 'admin' },
  coverage_read: { op: 'getCoverage', doc: 'admin' },
  pact_export: { op: 'getPact', doc: 'admin' },
  bundle_export: { op: 'getSnapshot', doc: 'admin' },
  bundle_load: { op: 'restoreSnapshot', doc: 'admin', body: 'bundle' },
  provider_state_set: { op: 'setUpProviderState', doc: 'admin' },
  listPets: { op: 'listPets', doc: 'contract' },
  createPet: { op: 'createPet', doc: 'contract', body: 'body' },
  getPet: { op: 'getPet', doc: 'contract' },
}
routes['provider_state_set']!.body = 'spread'

/** What only a tool has, documented in docs/recipes/mcp.md: by tool, each argument's schema in the admin document. */
const extras: Record<string, Record<string, unknown>> = {
  clock_set: { advanceMs: 'own' },
  explain_request: { id: adminYaml.components.schemas.JournalEntry.properties.id },
  listPets: { session: adminYaml.components.schemas.SessionName, apiKey: 'own' },
  createPet: { session: adminYaml.components.schemas.SessionName, apiKey: 'own' },
  getPet: { session: adminYaml.components.schemas.SessionName, apiKey: 'own' },
}

const ignored = new Set(['discriminator', 'example', 'xml'])

/** A schema with every $ref replaced by what it points at (`defs` for the tool's, the document's components). */
const resolved = (schema: unknown, lookup: (ref: string) => unknown, depth = 0): unknown => {
  if (depth > 40) return '…'
  if (Array.isArray(schema)) return schema.map((s) => resolved(s, lookup, depth + 1))
  if (schema === null || typeof schema !== 'object') return schema
  const ref = (schema as { $ref?: string }).$ref
  if (typeof ref === 'string') return resolved(lookup(ref), lookup, depth + 1)
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => !ignored.has(key))
      .map(([key, value]) => [key, resolved(value, lookup, depth + 1)]),
  )
}

const docLookup = (doc: any) => (ref: string) => {
  const name = ref.replace('#/components/schemas/', '')
  return doc.components.schemas[name]
}

const operationOf = (doc: any, id: string) => {
  for (const item of Object.values<any>(doc.paths)) {
    for (const method of ['get', 'put', 'post', 'delete']) {
      if (item[method]?.operationId === id) {
        const params = [...(item.parameters ?? []), ...(item[method].parameters ?? [])].map((p: any) =>
          p.$ref ? doc.components.parameters[p.$ref.split('/').at(-1)] : p,
        )
        return { method, params, body: item[method].requestBody?.content?.['application/json']?.schema }
      }
    }
  }
  throw new Error(`no ${id}`)
}

describe('every MCP tool’s input schema is its route’s (admin-openapi.yaml, openapi.yaml)', () => {
  it('has the issue’s tools, no more, no fewer', () => {
    expect(tools.map((t) => t.spec.name).sort()).toEqual(Object.keys(routes).sort())
  })

  for (const tool of tools) {
    it(tool.spec.name, () => {
      const route = routes[tool.spec.name]!
      const doc = route.doc === 'admin' ? adminYaml : contractYaml
      const schema = tool.inputSchema as any
      const own = (s: unknown) => resolved(s, (ref) => schema.$defs[ref.replace('#/$defs/', '')])
      const theirs = (s: unknown) => resolved(s, docLookup(doc))
      const op = operationOf(doc, route.op)
      const expected: Record<string, unknown> = {}
      const required: string[] = []
      for (const param of op.params) {
        if (param.in === 'header') {
          expected['session'] = theirs(param.schema)
          required.push('session')
        } else if (tool.spec.name !== 'explain_request') {
          const name = route.rename?.[param.name] ?? param.name
          expected[name] = theirs({ ...param.schema, ...(param.description && { description: param.description }) })
          if (param.required || param.in === 'path') required.push(name)
        }
      }
      if (op.body && route.body === 'spread') {
        const body = theirs(op.body) as any
        Object.assign(expected, body.properties)
        required.push(...(body.required ?? []))
      } else if (op.body && route.body) {
        expected[route.body] = theirs(op.body)
        required.push(route.body)
      }
      for (const [name, value] of Object.entries(extras[tool.spec.name] ?? {})) {
        expected[name] = value === 'own' ? own(schema.properties[name]) : theirs(value)
        if (name === 'session' || name === 'id') required.push(name)
      }
      expect(schema.type).toBe('object')
      expect(schema.additionalProperties).toBe(false)
      expect(Object.keys(schema.properties).sort()).toEqual(Object.keys(expected).sort())
      for (const [name, value] of Object.entries(expected)) expect(own(schema.properties[name]), name).toEqual(value)
      expect([...(schema.required ?? [])].sort()).toEqual([...new Set(required)].sort())
      // Its check compiles (on first use in the server).
      expect(typeof tool.validate()).toBe('function')
      // A tool that changes the mock is exactly one whose route is not a read.
      expect(tool.writes).toBe(op.method !== 'get')
    })
  }
})

// Schema constructs that are legal JSON Schema but that some MCP clients refuse or drop in a tool's
// input (the MCP Inspector 2.12.0's "schema portability" panel flags them: a tool can work in one
// client and fail in another). Checked here on every tool, so that the Inspector shows 0 findings.
const schemaMaps = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions']
const schemaLists = ['allOf', 'anyOf', 'oneOf', 'prefixItems']
const schemaSlots = ['items', 'contains', 'not', 'propertyNames', 'if', 'then', 'else', 'contentSchema']
// Where a bare boolean is the usual spelling (`additionalProperties: false`).
const booleanSlots = ['additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems']
const constraining = new Set([
  'type',
  'enum',
  'const',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'format',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxProperties',
  'minProperties',
  'required',
  'dependentRequired',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'items',
  'prefixItems',
  'contains',
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'dependentSchemas',
  '$ref',
  'if',
])

/** What a client may refuse in `schema`, by where it is (`at`); `slot` is the keyword holding it. */
const unportable = (schema: unknown, at: string, slot?: string): string[] => {
  if (typeof schema === 'boolean') return slot && booleanSlots.includes(slot) ? [] : [`${at}: a bare ${schema}`]
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return []
  const node = schema as Record<string, unknown>
  const found: string[] = []
  if (Array.isArray(node['type'])) found.push(`${at}: type is a list`)
  if (typeof node['$ref'] === 'string' && !node['$ref'].startsWith('#')) found.push(`${at}: $ref outside the schema`)
  if (slot !== 'not' && !Object.keys(node).some((key) => constraining.has(key))) found.push(`${at}: no keyword`)
  for (const key of schemaMaps)
    for (const [name, sub] of Object.entries((node[key] as Record<string, unknown> | undefined) ?? {}))
      found.push(...unportable(sub, `${at}.${key}.${name}`, key))
  for (const key of schemaLists)
    ((node[key] as unknown[] | undefined) ?? []).forEach((sub, i) =>
      found.push(...unportable(sub, `${at}.${key}[${i}]`, key)),
    )
  for (const key of [...schemaSlots, ...booleanSlots])
    if (key in node) found.push(...unportable(node[key], `${at}.${key}`, key))
  return found
}

describe('every tool’s input schema is portable to MCP clients', () => {
  it('the check finds what the Inspector flags: an untyped schema, a list of types, a remote $ref, a bare true', () => {
    const bad = {
      type: 'object',
      additionalProperties: false,
      properties: { a: {}, b: { type: ['string', 'null'] }, c: { $ref: 'https://x.test/s.json' }, d: true },
    }
    expect(unportable(bad, 'in')).toEqual([
      'in.properties.a: no keyword',
      'in.properties.b: type is a list',
      'in.properties.c: $ref outside the schema',
      'in.properties.d: a bare true',
    ])
  })

  it.each(tools.map((tool) => [tool.spec.name, tool] as const))('%s: none of them', (_name, tool) => {
    expect(unportable(tool.inputSchema, 'inputSchema')).toEqual([])
  })

  it('a rule’s own answer body is still any JSON value: every kind passes rule_set’s check', () => {
    const ruleSet = tools.find((tool) => tool.spec.name === 'rule_set')!
    for (const body of ['text', 3, 2.5, true, null, { a: [1] }, [1, 'x']]) {
      const check = ruleSet.validate()
      expect(check({ session: 's', name: 'r', rule: { status: 200, body } }), JSON.stringify(body)).toBe(true)
    }
  })
})

describe('what an agent reads names no file of this repository', () => {
  // An agent shows a tool's description and schema to its user, who has the package, not its sources.
  const repositoryPath = /\b(src|scripts|test|tools|dist)\/[\w./-]+/g

  it('the check finds a path', () => {
    expect(JSON.stringify({ description: 'compiled into src/generated/validators.ts' }).match(repositoryPath)).toEqual([
      'src/generated/validators.ts',
    ])
  })

  it.each(tools.map((tool) => [tool.spec.name, tool] as const))('%s', (_name, tool) => {
    expect(JSON.stringify({ spec: tool.spec, inputSchema: tool.inputSchema }).match(repositoryPath)).toBeNull()
  })
})
