import { badRequest } from '../http/errors.js'
import { queryParams } from '../http/request/query.js'
import type { SpecOperation } from './spec.js'
import { isLosslessNumber } from 'lossless-json'
import { describeSchemaError } from './messages.js'
import { parseParameter } from './parameters.js'
import { clampedRaws } from './silences.js'
import type { RequestContext, Stage } from '../http/stage.js'
// The body variable.
import type {} from '../body/read-body.js'

/** A request's parameters and body after validation against the contract. */
export interface ValidInput {
  params: Record<string, unknown>
  body: unknown
}

declare module 'hono' {
  interface ContextVariableMap {
    /** The request's parameters and body, valid (see {@link validateRequest}). */
    input: ValidInput
  }
}

/** The raw values of a parameter as the request gives them: each occurrence in the query, the path segment or the header. */
export const rawValues = (c: RequestContext, where: string, name: string): string[] => {
  if (where === 'query') return queryParams(c)[name] ?? []
  if (where === 'path') {
    const value = c.req.param(name)
    return value === undefined ? [] : [value]
  }
  const header = c.req.header(name)
  return header === undefined ? [] : [header]
}

/**
 * Validates the request against the operation's parameters and JSON body
 * schema, all compiled from the document; the first problem is a 400 naming
 * the parameter or field. The typed values go to `c.var.input`. With
 * `clamp` (`--limit-range clamp`), a bounded integer query parameter beyond
 * a bound takes that bound instead.
 */
export const validateRequest =
  (operation: SpecOperation, limitRange: 'reject' | 'clamp' = 'reject'): Stage =>
  (c, next) => {
    const params: Record<string, unknown> = {}
    for (const param of operation.parameters) {
      const raws = rawValues(c, param.in, param.name)
      const parsed = parseParameter(
        param,
        limitRange === 'clamp' && param.in === 'query' ? clampedRaws(param.schema, raws) : raws,
      )
      if (!parsed.ok) throw badRequest(`${parsed.message}.`)
      params[param.name] = parsed.value
    }
    const body = operation.requestBody ? c.get('body') : undefined
    if (operation.requestBody && !operation.requestBody.validate(body)) {
      const error = operation.requestBody.validate.errors?.[0]
      // A number too large to hold (`1e999`) parses to an object: not a missing field, a body of another kind.
      if (isLosslessNumber(body)) throw badRequest('Request body must be a JSON object.')
      throw badRequest(`${error ? describeSchemaError(error, 'Request body') : 'Request body is invalid'}.`)
    }
    c.set('input', { params, body })
    return next(c)
  }
