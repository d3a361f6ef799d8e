import type { MiddlewareHandler } from 'hono'
import { badRequest } from '../http/errors.js'

const methods = ['get', 'put', 'post', 'delete', 'patch'] as const

/** A route of an OpenAPI document: its method, its path template, and the query parameters it takes. */
export interface DocumentedQuery {
  method: string
  template: string
  query: string[]
}

type Parameter = { $ref?: string; name?: string; in?: string }

const resolve = (document: Record<string, any>, parameter: Parameter): Parameter => {
  if (parameter.$ref === undefined) return parameter
  const name = parameter.$ref.replace('#/components/parameters/', '')
  return (document['components']?.['parameters']?.[name] ?? {}) as Parameter
}

/** The query parameters each route of an OpenAPI document takes (npm run generate writes them for the admin API). */
export const documentedQueries = (document: Record<string, any>): DocumentedQuery[] =>
  Object.entries(document['paths'] as Record<string, Record<string, any>>).flatMap(([template, item]) =>
    methods
      .filter((method) => item[method] !== undefined)
      .map((method) => ({
        method: method.toUpperCase(),
        template,
        query: [...((item['parameters'] ?? []) as Parameter[]), ...((item[method]['parameters'] ?? []) as Parameter[])]
          .map((parameter) => resolve(document, parameter))
          .filter((parameter) => parameter.in === 'query')
          .map((parameter) => parameter.name!),
      })),
  )

/**
 * Refuses, with 400 naming it, a query parameter given twice, or one the route does not take, as the admin API's
 * OpenAPI document lists them (`documented`, see {@link documentedQueries}): `?offset=2` or `?since=5` on a route that ignored them
 * used to answer every entry, and a pipeline asserted on the wrong data. The document is the one
 * list: a parameter a route reads and the document omits is refused too, so they cannot drift.
 */
export const knownQuery = (documented: readonly DocumentedQuery[]): MiddlewareHandler => {
  const routes = documented.map((route) => ({
    ...route,
    path: new RegExp(
      `^${route.template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\\{[^}]+\\\}|\{[^}]+\}/g, '[^/]+')}$`,
    ),
  }))
  return async function knownQuery(c, next) {
    if (!c.req.url.includes('?')) return next()
    const method = c.req.method === 'HEAD' ? 'GET' : c.req.method
    const route = routes.find((r) => r.method === method && r.path.test(c.req.path))
    const queries = c.req.queries()
    if (route !== undefined) {
      for (const name of Object.keys(queries)) {
        if (!route.query.includes(name)) {
          const takes = route.query.length > 0 ? route.query.join(', ') : 'none'
          throw badRequest(`Unknown query parameter ${name} for ${method} ${route.template}; it takes ${takes}.`)
        }
      }
    }
    // No admin parameter takes a list: which of two values counts would be a guess (as on /v1).
    for (const [name, values] of Object.entries(queries)) {
      if (values.length > 1) throw badRequest(`${name} must be given at most once.`)
    }
    return next()
  }
}
