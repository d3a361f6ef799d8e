// openapi-typescript builds its output with the TypeScript 5 compiler API, which the repository's
// TypeScript 7 (the native compiler) no longer offers: this package keeps its own TypeScript 5.
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript'

/** The `paths`, `components` and `operations` types of an OpenAPI document (YAML or JSON text). */
export const openapiTypes = async (specText) =>
  COMMENT_HEADER + astToString(await openapiTS(specText, { silent: true }))
