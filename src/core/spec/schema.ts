/** The subset of an OpenAPI 3.0 Schema Object this server reads. */
export interface SchemaObject {
  $ref?: string
  type?: string
  format?: string
  enum?: unknown[]
  minimum?: number
  maximum?: number
  default?: unknown
  properties?: Record<string, SchemaObject>
  allOf?: SchemaObject[]
  items?: SchemaObject
}

/** Follows `$ref`s of the form `#/a/b` inside the document until a schema without one. */
export const resolveSchema = <T extends { $ref?: string } = SchemaObject>(document: object, schema: T): T => {
  let current: any = schema
  for (let hops = 0; current.$ref !== undefined; hops++) {
    const ref: string = current.$ref
    if (hops > 32 || !ref.startsWith('#/')) throw new Error(`cannot resolve $ref ${ref}`)
    current = ref
      .slice(2)
      .split('/')
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<any>((node, key) => node?.[key], document)
    if (current === undefined) throw new Error(`unresolved $ref ${schema.$ref}`)
  }
  return current
}
