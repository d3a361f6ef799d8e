// openapi-typescript builds its output with the TypeScript 5 compiler API, which the repository's
// TypeScript 7 (the native compiler) no longer offers: this package keeps its own TypeScript 5.
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript'

/**
 * The `paths`, `components` and `operations` types of an OpenAPI document (YAML or JSON text);
 * `options` are openapi-typescript's (e.g. `arrayLength`: `maxItems: 0` as the empty tuple `[]`).
 */
export const openapiTypes = async (specText, options = {}) =>
  COMMENT_HEADER + astToString(await openapiTS(specText, { silent: true, ...options }))
