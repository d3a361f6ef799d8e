/**
 * The `paths`, `components` and `operations` types of an OpenAPI document (YAML or JSON text);
 * `options` are openapi-typescript's (e.g. `arrayLength`: `maxItems: 0` as the empty tuple `[]`).
 */
export declare const openapiTypes: (specText: string, options?: { arrayLength?: boolean }) => Promise<string>
