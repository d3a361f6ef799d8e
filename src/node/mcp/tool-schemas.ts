// The input schema of each MCP tool, read from the document its route is described in: the admin
// OpenAPI document for the control plane, openapi.yaml for the three operations. A route and its tool
// cannot disagree: the tool's arguments ARE the route's parameters and body, by the same schemas.

/** A JSON Schema (an OpenAPI 3.1 schema is one; openapi.yaml's 3.0 ones are read as such). */
export type JsonSchema = Record<string, unknown>

/** An OpenAPI document, as parsed. */
export type OpenApiDocument = Record<string, any>

/** Where a tool's arguments come from: an operation of a document. */
export interface ToolSource {
  /** The operationId in the document. */
  operation: string
  /** The route's body: spread into the arguments (its properties), or under one argument's name. */
  body?: 'spread' | { as: string }
  /** Path parameters by the tool's name for them (`rule` → `name`). */
  rename?: Record<string, string>
  /** Only the route's session of its parameters (explain_request: one entry, not the journal's filters). */
  sessionOnly?: true
  /**
   * Arguments only the tool has (documented in docs/recipes/mcp.md); `{ $admin: pointer }` is the admin
   * document's schema at that JSON pointer (the session's name, a journal entry's id).
   */
  extra?: Record<string, JsonSchema>
  /** Which extras are required. */
  extraRequired?: readonly string[]
}

/** An operation found in a document: its method, path, parameters (resolved) and JSON body schema. */
export interface FoundOperation {
  method: string
  path: string
  parameters: { name: string; in: string; required: boolean; schema: JsonSchema; description?: string }[]
  body: { schema: JsonSchema; required: boolean } | undefined
}

const methods = ['get', 'put', 'post', 'delete', 'patch', 'head']

const resolve = (doc: OpenApiDocument, value: any): any => {
  if (value && typeof value.$ref === 'string' && value.$ref.startsWith('#/components/parameters/')) {
    return doc['components']['parameters'][value.$ref.slice('#/components/parameters/'.length)]
  }
  return value
}

/** An operation of `doc` by its operationId; throws when the document has none (the tool table is wrong). */
export const findOperation = (doc: OpenApiDocument, operationId: string): FoundOperation => {
  for (const [path, item] of Object.entries<any>(doc['paths'])) {
    for (const method of methods) {
      const op = item[method]
      if (op?.operationId !== operationId) continue
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: unknown) => {
        const found = resolve(doc, p)
        return {
          name: found.name as string,
          in: found.in as string,
          required: found.required === true,
          schema: found.schema as JsonSchema,
          ...(found.description !== undefined && { description: found.description as string }),
        }
      })
      const json = op.requestBody?.content?.['application/json']?.schema as JsonSchema | undefined
      return {
        method: method.toUpperCase(),
        path,
        parameters,
        body: json && { schema: json, required: op.requestBody.required === true },
      }
    }
  }
  throw new Error(`The document has no operation ${operationId}`)
}

const schemaRef = '#/components/schemas/'

// A schema by JSON pointer, itself without $refs (the extras point at plain ones).
const pointerIn = (doc: OpenApiDocument, pointer: string): JsonSchema => {
  let at: any = doc
  for (const part of pointer.split('/').slice(1)) at = at?.[part.replace(/~1/g, '/').replace(/~0/g, '~')]
  if (at === undefined) throw new Error(`The admin document has nothing at ${pointer}`)
  return at as JsonSchema
}

// A copy of `schema` whose $refs point into $defs, and the names of the components it needs.
const localized = (schema: unknown, needs: Set<string>): unknown => {
  if (Array.isArray(schema)) return schema.map((item) => localized(item, needs))
  if (schema === null || typeof schema !== 'object') return schema
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema)) {
    // OpenAPI's discriminator is no JSON Schema keyword: oneOf says the same.
    if (key === 'discriminator' || key === 'example' || key === 'xml') continue
    if (key === '$ref' && typeof value === 'string' && value.startsWith(schemaRef)) {
      needs.add(value.slice(schemaRef.length))
      out[key] = `#/$defs/${value.slice(schemaRef.length)}`
    } else out[key] = localized(value, needs)
  }
  return out
}

/**
 * The tool's input schema: an object of the route's session (the `X-Mock-Session` header's schema, as
 * `session`), its path and query parameters, its body (spread or under a name) and the tool's extras,
 * the components they refer to in `$defs`.
 */
export const toolInputSchema = (
  doc: OpenApiDocument,
  source: ToolSource,
  adminDoc: OpenApiDocument = doc,
): JsonSchema => {
  const op = findOperation(doc, source.operation)
  const needs = new Set<string>()
  const properties: Record<string, unknown> = {}
  const required: string[] = []
  for (const param of op.parameters) {
    if (param.in === 'header' && param.name === 'X-Mock-Session') {
      properties['session'] = localized(param.schema, needs)
      required.push('session')
      continue
    }
    if (param.in === 'header' || source.sessionOnly) continue
    const name = source.rename?.[param.name] ?? param.name
    properties[name] = localized(
      param.description === undefined ? param.schema : { ...param.schema, description: param.description },
      needs,
    )
    if (param.required || param.in === 'path') required.push(name)
  }
  if (op.body && source.body === 'spread') {
    let body = op.body.schema
    if (typeof body['$ref'] === 'string')
      body = doc['components']['schemas'][(body['$ref'] as string).slice(schemaRef.length)]
    for (const [name, schema] of Object.entries((body['properties'] ?? {}) as Record<string, unknown>)) {
      properties[name] = localized(schema, needs)
    }
    required.push(...((body['required'] as string[] | undefined) ?? []))
  } else if (op.body && source.body !== undefined && source.body !== 'spread') {
    properties[source.body.as] = localized(op.body.schema, needs)
    if (op.body.required) required.push(source.body.as)
  }
  for (const [name, schema] of Object.entries(source.extra ?? {})) {
    properties[name] = typeof schema['$admin'] === 'string' ? pointerIn(adminDoc, schema['$admin']) : schema
  }
  required.push(...(source.extraRequired ?? []))
  const defs: Record<string, unknown> = {}
  const components = (doc['components']?.['schemas'] ?? {}) as Record<string, unknown>
  for (const name of needs) {
    // The components a component refers to are added to `needs` as it is read: the loop sees them too.
    defs[name] = localized(components[name], needs)
  }
  return {
    type: 'object',
    properties,
    ...(required.length > 0 && { required: [...new Set(required)] }),
    additionalProperties: false,
    ...(Object.keys(defs).length > 0 && { $defs: defs }),
  }
}
