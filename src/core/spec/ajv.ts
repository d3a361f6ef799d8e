import { Ajv, type Format, type Options } from 'ajv'
import type { SchemaCompiler } from './spec.js'

/** Where a document is registered inside Ajv; refs resolve against it. */
export const documentId = 'openapi'

/**
 * The formats of OpenAPI integers. int64 JSON numbers are exact in JavaScript
 * only up to 2^53 − 1: beyond that, reject rather than round. Written as
 * self-contained arrow functions: the generated validators embed their source.
 */
export const integerFormats: Record<'int64' | 'int32', Format & { type: 'number'; validate: (n: number) => boolean }> =
  {
    int64: { type: 'number', validate: (n: number) => Number.isSafeInteger(n) },
    int32: { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -2147483648 && n <= 2147483647 },
  }

/**
 * Ajv's options for the contract: `verbose` keeps the failing schema in each
 * error (messages quote its bounds); OpenAPI-only keywords (example, xml, …)
 * are not JSON Schema, hence strict off. The document is checked against the
 * OpenAPI schema by the test suite, so Ajv's meta-schema check is skipped.
 */
export const contractAjvOptions: Options = { strict: false, verbose: true, allErrors: false, validateSchema: false }

/** An Ajv instance with the integer formats, for the contract or another schema. */
export const createAjv = (options: Options = {}): Ajv => {
  const ajv = new Ajv({ ...contractAjvOptions, ...options })
  for (const [name, format] of Object.entries(integerFormats)) ajv.addFormat(name, format)
  return ajv
}

/**
 * Compiles schemas of a document at run time (a custom `--spec`), by JSON
 * pointer, so that `$ref`s resolve as written; each on first use, then kept.
 * Needs `new Function`: the bundled contract uses validators generated ahead
 * of time instead.
 */
export const createSchemaCompiler = (document: object): SchemaCompiler => {
  const ajv = createAjv()
  ajv.addSchema(document, documentId)
  const cache = new Map<string, ReturnType<SchemaCompiler>>()
  return (pointer) => {
    let validate = cache.get(pointer)
    if (!validate) {
      validate = ajv.compile({ $ref: `${documentId}#${pointer}` })
      cache.set(pointer, validate)
    }
    return validate
  }
}
