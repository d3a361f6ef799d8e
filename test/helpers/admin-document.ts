import { Ajv2020 } from 'ajv/dist/2020.js'
import { adminDocument } from '../../src/generated/admin-document.js'

// Every /__admin answer of the suites is checked against the admin API's OpenAPI 3.1 document
// (admin-openapi.yaml), as /v1 answers are against openapi.yaml: its status must be one the route
// documents (a 4xx or 5xx: `default`), and a JSON body must be the schema documented for it.
// Formats (date-time) are the server's own checks, tested where it reads them.
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false })
ajv.addSchema({ $id: 'admin', components: adminDocument['components'] })
const rewrite = (schema: unknown): unknown =>
  JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"admin#/components/'))

const compiled = new Map<string, ReturnType<typeof ajv.compile>>()

const methods = ['get', 'put', 'post', 'delete', 'patch'] as const
const routes = Object.entries(adminDocument['paths'] as Record<string, Record<string, any>>).flatMap(
  ([template, item]) =>
    methods
      .filter((method) => item[method] !== undefined)
      .map((method) => ({
        method: method.toUpperCase(),
        template,
        path: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
        operation: item[method] as { responses: Record<string, any> },
      })),
)

const response = (responses: Record<string, any>, status: number): Record<string, any> | undefined => {
  const found = responses[String(status)] ?? (status >= 400 ? responses['default'] : undefined)
  if (found?.$ref === undefined) return found
  return adminDocument['components']['responses'][String(found.$ref).split('/').pop()!]
}

/** The route of the admin document a request is for; undefined off the document (the panel's files, OPTIONS). */
export const adminRouteOf = (method: string, path: string) =>
  routes.find((r) => r.method === (method === 'HEAD' ? 'GET' : method) && r.path.test(path))

/**
 * The 2xx and 3xx statuses admin-openapi.yaml documents for a request to /__admin (a `HEAD`: its `GET`'s);
 * none for a path it does not have. The document is the one list of admin routes and their answers.
 */
export const adminDocumentedStatuses = (method: string, path: string): number[] => {
  const route = adminRouteOf(method, path)
  if (route === undefined) return []
  return Object.keys(route.operation.responses)
    .filter((status) => /^[23]\d\d$/.test(status))
    .map(Number)
}

/**
 * Throws unless the answer is one the admin document describes for its route: a documented status, and
 * for a JSON body, the schema documented for it. Answers of routes the document does not have pass.
 */
export const assertAdminDocument = async (method: string, path: string, res: Response): Promise<void> => {
  const route = adminRouteOf(method, path)
  if (route === undefined) return
  const where = `${method} ${path} → ${res.status}`
  const documented = response(route.operation.responses, res.status)
  if (documented === undefined) {
    throw new Error(`${where}: a status admin-openapi.yaml does not document for ${route.method} ${route.template}`)
  }
  if (method === 'HEAD' || res.status === 204) return
  const type = res.headers.get('content-type') ?? ''
  if (!type.startsWith('application/json')) return
  const schema = documented['content']?.['application/json']?.['schema']
  if (schema === undefined) throw new Error(`${where}: JSON that admin-openapi.yaml does not document`)
  const key = `${route.method} ${route.template} ${res.status}`
  let validate = compiled.get(key)
  if (validate === undefined) compiled.set(key, (validate = ajv.compile(rewrite(schema) as object)))
  const body = JSON.parse(await res.clone().text())
  if (!validate(body)) {
    throw new Error(`${where}: body breaks admin-openapi.yaml: ${JSON.stringify(validate.errors)}`)
  }
}
