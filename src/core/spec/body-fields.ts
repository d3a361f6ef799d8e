import type { Spec } from './spec.js'
import { resolveSchema, type SchemaObject } from './schema.js'

const propertiesOf = (document: object, schema: SchemaObject | undefined, into: Set<string>): Set<string> => {
  if (!schema) return into
  const resolved = resolveSchema(document, schema)
  for (const name of Object.keys(resolved.properties ?? {})) into.add(name)
  for (const part of resolved.allOf ?? []) propertiesOf(document, part, into)
  return into
}

/** The properties the contract defines for an operation's JSON request body (allOf parts included). */
export const bodyFieldNames = (spec: Spec, operationId: string): string[] => {
  const operation = spec.operations.find((op) => op.id === operationId)
  if (!operation) return []
  const raw = spec.document['paths']?.[operation.path]?.[operation.method.toLowerCase()]
  const body = raw?.requestBody ? resolveSchema<any>(spec.document, raw.requestBody) : undefined
  return [...propertiesOf(spec.document, body?.content?.['application/json']?.schema, new Set())]
}
