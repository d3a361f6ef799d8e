import { Ajv, type ValidateFunction } from 'ajv'

/** Where the loaded document is registered inside Ajv; refs resolve against it. */
export const documentId = 'openapi'

const INT32 = 2 ** 31

/**
 * An Ajv instance holding the whole OpenAPI document, so that every schema in
 * it is compiled in place by JSON pointer and its `$ref`s resolve as written.
 * OpenAPI-only keywords (example, xml, …) are not JSON Schema, hence strict off.
 */
export const createSchemaCompiler = (document: object) => {
  // The document is checked against the OpenAPI schema by the test suite; compiling Ajv's
  // meta-schema to re-check every schema at start-up would cost more than everything else.
  const ajv = new Ajv({ strict: false, verbose: true, allErrors: false, validateSchema: false })
  // int64 JSON numbers are exact in JavaScript only up to 2^53 − 1: beyond that, reject rather than round.
  ajv.addFormat('int64', { type: 'number', validate: Number.isSafeInteger })
  ajv.addFormat('int32', { type: 'number', validate: (n) => Number.isInteger(n) && n >= -INT32 && n < INT32 })
  ajv.addSchema(document, documentId)
  // Compiled on first use and kept: start-up pays only for what the first requests need.
  const cache = new Map<string, ValidateFunction>()
  return (pointer: string): ValidateFunction => {
    let validate = cache.get(pointer)
    if (!validate) {
      validate = ajv.compile({ $ref: `${documentId}#${pointer}` })
      cache.set(pointer, validate)
    }
    return validate
  }
}

/** Compiles the schema found at a JSON pointer of the document. */
export type SchemaCompiler = ReturnType<typeof createSchemaCompiler>

/** Escapes one JSON pointer segment (RFC 6901). */
export const pointerSegment = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1')
