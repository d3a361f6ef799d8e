import type { ValidateFunction } from 'ajv'
import { pointerSegment } from './pointer.js'
import { resolveSchema, type SchemaObject } from './schema.js'

/** Compiles (or looks up) the validator of the schema at a JSON pointer of the document. */
export type SchemaCompiler = (pointer: string) => ValidateFunction

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

/** A parameter of an operation, with its validator compiled from the document. */
export interface SpecParameter {
  name: string
  in: 'query' | 'path' | 'header' | 'cookie'
  required: boolean
  schema: SchemaObject
  validate: ValidateFunction
}

/** One operation of the document, ready to route and validate. */
export interface SpecOperation {
  id: string
  method: string
  /** As written in the document: `/pets/{petId}`. */
  path: string
  /** As routed, with the base path: `/v1/pets/:petId`. */
  routePath: string
  deprecated: boolean
  /** `x-sunset` (an HTTP date source, e.g. 2030-12-05) and `x-replacement`, when deprecated. */
  sunset?: Date
  replacement?: string
  parameters: SpecParameter[]
  requestBody?: { required: boolean; validate: ValidateFunction }
  /** The statuses it documents, ascending. */
  statuses: number[]
  /** Validates a response body against the schema documented for that status. */
  responseValidator(status: number): ValidateFunction | undefined
}

/** The loaded contract: what the server routes and validates by. */
export interface Spec {
  /** The file text, served as is at /openapi.yaml. */
  text: string
  /**
   * Where the text is not held at start (the bundled contract: {@link text} is filled once this
   * has loaded it), loads it; /openapi.yaml is served from what it gives.
   */
  loadText?(): Promise<string>
  document: Record<string, any>
  /** Path of the first server URL, e.g. `/v1`. */
  basePath: string
  operations: SpecOperation[]
  /** Validator of a schema under components/schemas, by name. */
  componentValidator(name: string): ValidateFunction
}

const basePathOf = (document: Record<string, any>): string => {
  const url: string = document['servers']?.[0]?.url ?? '/'
  const path = new URL(url, 'http://placeholder').pathname.replace(/\/+$/, '')
  return path
}

const toRoutePath = (basePath: string, path: string): string => basePath + path.replace(/\{([^}]+)\}/g, ':$1')

const operationFrom = (
  spec: { document: Record<string, any>; basePath: string; compile: SchemaCompiler },
  path: string,
  method: string,
): SpecOperation => {
  const { document, basePath, compile } = spec
  const pointer = `/paths/${pointerSegment(path)}/${method}`
  const raw = document['paths'][path][method]
  const shared: any[] = document['paths'][path]['parameters'] ?? []
  const parameters = [...shared, ...(raw.parameters ?? [])].map((p: any, i: number): SpecParameter => {
    const own = i >= shared.length
    const at = own ? `${pointer}/parameters/${i - shared.length}` : `/paths/${pointerSegment(path)}/parameters/${i}`
    const param = p.$ref ? resolveSchema(document, p) : p
    const schemaPointer = p.$ref ? `${p.$ref.slice(1)}/schema` : `${at}/schema`
    return {
      name: param.name,
      in: param.in,
      required: param.required === true,
      schema: resolveSchema(document, param.schema ?? {}),
      get validate() {
        return compile(schemaPointer)
      },
    }
  })
  const body: any = raw.requestBody ? resolveSchema<any>(document, raw.requestBody) : undefined
  const bodyPointer = raw.requestBody?.$ref ? raw.requestBody.$ref.slice(1) : `${pointer}/requestBody`
  const responses: Record<string, any> = raw.responses ?? {}
  const responseSchemaPointer = (status: string): string | undefined => {
    const response = responses[status]
    const resolved = response.$ref ? resolveSchema(document, response) : response
    if (!resolved.content?.['application/json']?.schema) return undefined
    const at = response.$ref ? response.$ref.slice(1) : `${pointer}/responses/${status}`
    return `${at}/content/application~1json/schema`
  }
  return {
    id: raw.operationId,
    method: method.toUpperCase(),
    path,
    routePath: toRoutePath(basePath, path),
    deprecated: raw.deprecated === true,
    ...(raw['x-sunset'] ? { sunset: new Date(raw['x-sunset']) } : {}),
    ...(raw['x-replacement'] ? { replacement: String(raw['x-replacement']) } : {}),
    parameters,
    ...(body?.content?.['application/json']?.schema
      ? {
          requestBody: {
            required: body.required === true,
            get validate() {
              return compile(`${bodyPointer}/content/application~1json/schema`)
            },
          },
        }
      : {}),
    statuses: Object.keys(responses)
      .filter((s) => /^\d{3}$/.test(s))
      .map(Number)
      .sort((a, b) => a - b),
    responseValidator: (status) => {
      const pointer = status in responses ? responseSchemaPointer(String(status)) : undefined
      return pointer === undefined ? undefined : compile(pointer)
    },
  }
}

/**
 * Builds a Spec from a parsed OpenAPI 3.0 document, its text (served as is)
 * and a source of validators by JSON pointer: Ajv at run time, or the
 * validators generated ahead of time for the bundled contract.
 */
export const specFromDocument = (document: Record<string, any>, text: string, compile: SchemaCompiler): Spec => {
  if (!document || typeof document !== 'object' || !document['paths']) {
    throw new Error('not an OpenAPI document: no paths')
  }
  const basePath = basePathOf(document)
  const context = { document, basePath, compile }
  const operations = Object.keys(document['paths']).flatMap((path) =>
    METHODS.filter((m) => document['paths'][path][m]).map((m) => operationFrom(context, path, m)),
  )
  return {
    text,
    document,
    basePath,
    operations,
    componentValidator: (name) => compile(`/components/schemas/${pointerSegment(name)}`),
  }
}

/** Every JSON pointer whose schema a Spec of this document may compile: what to generate ahead of time. */
export const schemaPointers = (document: Record<string, any>): string[] => {
  const pointers = new Set<string>()
  const spec = specFromDocument(document, '', (pointer) => {
    pointers.add(pointer)
    return Object.assign(() => true, { errors: null }) as unknown as ValidateFunction
  })
  for (const op of spec.operations) {
    for (const parameter of op.parameters) void parameter.validate
    void op.requestBody?.validate
    for (const status of op.statuses) op.responseValidator(status)
  }
  for (const name of Object.keys(document['components']?.['schemas'] ?? {})) spec.componentValidator(name)
  return [...pointers]
}
