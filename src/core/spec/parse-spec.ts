import { parse } from 'yaml'
import { createSchemaCompiler } from './ajv.js'
import { type Spec, specFromDocument } from './spec.js'

/** Builds a Spec from the text of an OpenAPI 3.0 document (YAML or JSON), compiling validators at run time. */
export const parseSpec = (text: string): Spec => {
  const document = parse(text) as Record<string, any>
  return specFromDocument(document, text, createSchemaCompiler(document ?? {}))
}
