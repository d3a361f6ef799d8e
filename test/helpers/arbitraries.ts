import fc from 'fast-check'
import type { Spec } from '../../src/index.js'
import { resolveSchema, type SchemaObject } from '../../src/core/spec/schema.js'

const SAFE = Number.MAX_SAFE_INTEGER

/**
 * An arbitrary of values valid against a schema of the document: the subset
 * openapi.yaml uses (objects with required keys, strings, int64 integers
 * within what JSON numbers hold exactly, enums, allOf of objects).
 */
export const validValue = (spec: Spec, schema: SchemaObject): fc.Arbitrary<unknown> => {
  const s = resolveSchema(spec.document, schema) as SchemaObject & { required?: string[] }
  if (s.enum) return fc.constantFrom(...s.enum)
  switch (s.type) {
    case 'string':
      // any UTF-16 code units, lone surrogates and NUL included
      return fc.string({ unit: 'binary', maxLength: 40 })
    case 'integer':
      return fc.integer({ min: Math.max(s.minimum ?? -SAFE, -SAFE), max: Math.min(s.maximum ?? SAFE, SAFE) })
    case 'object': {
      const properties = Object.fromEntries(
        Object.entries(s.properties ?? {}).map(([k, v]) => [k, validValue(spec, v)]),
      )
      return fc.record(properties, { requiredKeys: s.required ?? [] })
    }
    default:
      throw new Error(`no arbitrary for schema ${JSON.stringify(s)}`)
  }
}

/** Keys a body may carry that the schema does not name (ignored by the server). */
export const extraKeys = (known: readonly string[]) =>
  fc.dictionary(
    fc.string({ maxLength: 12 }).filter((k) => !known.includes(k)),
    fc.jsonValue({ maxDepth: 2 }),
    { maxKeys: 3 },
  )

/** JSON texts the server must refuse for a NewPet, as text so that unsafe numbers survive. */
export const invalidNewPetText = (valid: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<string> => {
  const wrongCategoryId = fc.oneof(
    fc.string().map((v) => JSON.stringify(v)),
    fc.double({ noInteger: true, noDefaultInfinity: true, noNaN: true }).map(String),
    fc.constantFrom(
      'true',
      'null',
      '[]',
      '{}',
      '9007199254740992',
      '-9007199254740993',
      '1e400',
      '123456789012345678901234567890',
      '4.0000000000000001',
    ),
    fc.bigInt({ min: BigInt(SAFE) + 1n, max: 2n ** 70n }).map(String),
  )
  const wrongName = fc.oneof(fc.integer().map(String), fc.constantFrom('null', 'true', '[]', '{}', '1e999'))
  const wrongStatus = fc.oneof(
    fc
      .string()
      .filter((v) => !['available', 'pending', 'sold'].includes(v))
      .map((v) => JSON.stringify(v)),
    fc.constantFrom('null', '1', '[]'),
  )
  const withField = (pet: Record<string, unknown>, key: string, rawValue: string) => {
    const rest = Object.entries(pet).filter(([k]) => k !== key)
    return `{${[...rest.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`), `${JSON.stringify(key)}:${rawValue}`].join(',')}}`
  }
  return fc.oneof(
    fc.tuple(valid, wrongCategoryId).map(([pet, v]) => withField(pet, 'categoryId', v)),
    fc.tuple(valid, wrongName).map(([pet, v]) => withField(pet, 'name', v)),
    fc.tuple(valid, wrongStatus).map(([pet, v]) => withField(pet, 'status', v)),
    fc.tuple(valid, fc.constantFrom('name', 'categoryId')).map(([pet, key]) => {
      const { [key]: _, ...rest } = pet
      return JSON.stringify(rest)
    }),
    fc
      .jsonValue()
      .filter((v) => v === null || typeof v !== 'object' || Array.isArray(v))
      .map((v) => JSON.stringify(v)),
    fc.string({ unit: 'binary' }).filter((t) => {
      try {
        const v = JSON.parse(t)
        return typeof v !== 'object' || v === null || Array.isArray(v)
      } catch {
        return true
      }
    }),
    fc.integer({ min: 1, max: 20_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
    fc.integer({ min: 1, max: 20_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  )
}
