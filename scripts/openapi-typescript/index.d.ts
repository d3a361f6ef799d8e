/** The `paths`, `components` and `operations` types of an OpenAPI document (YAML or JSON text). */
export declare const openapiTypes: (specText: string) => Promise<string>
