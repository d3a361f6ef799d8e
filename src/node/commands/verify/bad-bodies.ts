import { resolveSchema, type SchemaObject } from '../../../core/spec/schema.js'
import type { Spec, SpecOperation } from '../../../core/spec/spec.js'

/** A createPet body, as sent, and what is wrong with it. */
export interface BodyCase {
  /** Short: `without name`, `categoryId as a string`. */
  label: string
  body: string
}

/** The request body schema of an operation, resolved, with its properties and required fields (allOf merged). */
export const bodySchema = (
  spec: Spec,
  operation: SpecOperation,
): { properties: Record<string, SchemaObject>; required: string[] } => {
  const raw = spec.document['paths']?.[operation.path]?.[operation.method.toLowerCase()]?.requestBody
  const properties: Record<string, SchemaObject> = {}
  const required: string[] = []
  const collect = (schema: (SchemaObject & { required?: string[] }) | undefined): void => {
    if (!schema) return
    const resolved = resolveSchema(spec.document, schema) as SchemaObject & { required?: string[] }
    for (const [name, property] of Object.entries(resolved.properties ?? {})) {
      properties[name] = resolveSchema(spec.document, property)
    }
    required.push(...(resolved.required ?? []))
    for (const part of resolved.allOf ?? []) collect(part)
  }
  if (raw) collect(resolveSchema<any>(spec.document, raw).content?.['application/json']?.schema)
  return { properties, required }
}

/** A valid value of a property: the first enum value, a name, or `integer` for integers. */
const validValue = (schema: SchemaObject, integer: number): unknown =>
  schema.enum?.[0] ?? (schema.type === 'integer' || schema.type === 'number' ? integer : 'petstore-mock verify')

/** A valid body: every property (`categoryId` and other integers given `integer`). */
export const validBody = (spec: Spec, operation: SpecOperation, integer: number): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(bodySchema(spec, operation).properties).map(([name, schema]) => [name, validValue(schema, integer)]),
  )

/** A value of another type than the schema's (an enum gets a string outside it). */
const wrongValue = (schema: SchemaObject): { value: unknown; label: string } => {
  if (schema.enum) return { value: 'not-one-of-the-enum', label: 'outside its enum' }
  if (schema.type === 'string') return { value: 5, label: 'as a number' }
  if (schema.type === 'integer') return { value: '1', label: 'as a string' }
  return { value: [], label: 'as an array' }
}

/**
 * Each kind of bad body the contract's schema lets one derive: each required
 * field missing, each property of the wrong type (or outside its enum), not
 * JSON, and not an object.
 */
export const badBodies = (spec: Spec, operation: SpecOperation, integer: number): BodyCase[] => {
  const valid = validBody(spec, operation, integer)
  const { properties, required } = bodySchema(spec, operation)
  const missing = required.map((name) => {
    const { [name]: _, ...rest } = valid
    return { label: `without ${name}`, body: JSON.stringify(rest) }
  })
  const wrong = Object.entries(properties).map(([name, schema]) => {
    const { value, label } = wrongValue(schema)
    return { label: `${name} ${label}`, body: JSON.stringify({ ...valid, [name]: value }) }
  })
  return [
    ...missing,
    ...wrong,
    { label: 'not JSON', body: '{"name": ' },
    { label: 'an array, not an object', body: '[]' },
  ]
}
