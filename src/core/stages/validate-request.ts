import type { Context } from 'hono'
import type { AppEnv } from '../app-env.js'
import { badRequest } from '../http/errors.js'
import { queryParams } from '../http/request-query.js'
import type { SpecOperation } from '../spec/spec.js'
import { describeSchemaError } from '../spec/messages.js'
import { parseParameter } from '../spec/parameters.js'
import type { Stage } from './stage.js'

const rawValues = (c: Context<AppEnv>, where: string, name: string): string[] => {
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
 * the parameter or field. The typed values go to `c.var.input`.
 */
export const validateRequest =
  (operation: SpecOperation): Stage =>
  (c, next) => {
    const params: Record<string, unknown> = {}
    for (const param of operation.parameters) {
      const parsed = parseParameter(param, rawValues(c, param.in, param.name))
      if (!parsed.ok) throw badRequest(`${parsed.message}.`)
      params[param.name] = parsed.value
    }
    const body = operation.requestBody ? c.get('body') : undefined
    if (operation.requestBody && !operation.requestBody.validate(body)) {
      const error = operation.requestBody.validate.errors?.[0]
      throw badRequest(`${error ? describeSchemaError(error, 'Request body') : 'Request body is invalid'}.`)
    }
    c.set('input', { params, body })
    return next(c)
  }
