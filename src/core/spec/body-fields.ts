import type { Spec, SpecOperation } from './spec.js'
import { resolveSchema, type SchemaObject } from './schema.js'

/** An object schema's fields: each property's schema (resolved), and which are required. */
export interface ObjectFields {
  properties: Map<string, SchemaObject>
  required: Set<string>
}

/** The properties of an object schema, allOf parts included, and which are required. */
export const objectFields = (
  document: object,
  schema: SchemaObject | undefined,
  into: ObjectFields = { properties: new Map(), required: new Set() },
): ObjectFields => {
  if (!schema) return into
  const resolved = resolveSchema(document, schema) as SchemaObject & { required?: string[] }
  for (const [name, property] of Object.entries(resolved.properties ?? {})) {
    into.properties.set(name, resolveSchema(document, property))
  }
  for (const name of resolved.required ?? []) into.required.add(name)
  for (const part of resolved.allOf ?? []) objectFields(document, part, into)
  return into
}

/** The JSON schema of an operation's request body, resolved; undefined without one. */
export const requestBodySchema = (spec: Spec, operation: SpecOperation): SchemaObject | undefined => {
  const raw = spec.document['paths']?.[operation.path]?.[operation.method.toLowerCase()]
  const body = raw?.requestBody ? resolveSchema<any>(spec.document, raw.requestBody) : undefined
  return body?.content?.['application/json']?.schema
}

/** The properties the contract defines for an operation's JSON request body (allOf parts included). */
export const bodyFieldNames = (spec: Spec, operationId: string): string[] => {
  const operation = spec.operations.find((op) => op.id === operationId)
  if (!operation) return []
  return [...objectFields(spec.document, requestBodySchema(spec, operation)).properties.keys()]
}
