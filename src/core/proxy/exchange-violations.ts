import type { JsonResult } from '../http/json.js'
import { isJsonType } from '../http/json.js'
import { contractDrifts, deprecationDrifts, type ObservedAnswer } from '../spec/answer-drifts.js'
import { describeSchemaError } from '../spec/messages.js'
import { parseParameter } from '../spec/parameters.js'
import type { Spec, SpecOperation } from '../spec/spec.js'
import { rawValues } from '../spec/validate-request.js'
import type { RequestContext } from '../http/stage.js'
import { bearerToken } from '../http/request/authorization.js'

/**
 * How a request departs from the contract (the proxy forwards it anyway and
 * lets the deployment answer): an operation the contract does not have, no
 * bearer key, a bad parameter, a body that is not the documented JSON.
 */
export const requestViolations = (
  c: RequestContext,
  operation: SpecOperation | undefined,
  body: { text: string; parsed: JsonResult } | undefined,
): string[] => {
  if (!operation) return [`request: ${c.req.method} ${c.req.path} is not an operation of the contract`]
  const id = operation.id
  const violations: string[] = []
  if (bearerToken(c.req.header('Authorization')) === undefined) {
    violations.push(`${id}: request has no Authorization: Bearer key, the contract requires one`)
  }
  for (const param of operation.parameters) {
    const parsed = parseParameter(param, rawValues(c, param.in, param.name))
    if (!parsed.ok) violations.push(`${id}: request ${parsed.message}`)
  }
  const schema = operation.requestBody
  if (!schema) return violations
  if (body === undefined || body.text === '') {
    if (schema.required) violations.push(`${id}: request has no body, the contract requires a JSON body`)
    return violations
  }
  if (!isJsonType(c.req.header('Content-Type'))) {
    violations.push(
      `${id}: request body is ${c.req.header('Content-Type') ?? 'without Content-Type'}, the contract says application/json`,
    )
  }
  if (!body.parsed.ok) violations.push(`${id}: ${body.parsed.message}`)
  else if (!schema.validate(body.parsed.value)) {
    violations.push(`${id}: request ${describeSchemaError(schema.validate.errors![0]!, 'Request body')}`)
  }
  return violations
}

/**
 * How a deployment's answer departs from the contract: a status the
 * operation does not document, else what {@link contractDrifts} finds for
 * that status (Content-Type, body schema, `Error.status`, deprecation headers).
 */
export const answerViolations = (
  spec: Spec,
  operation: SpecOperation | undefined,
  answer: ObservedAnswer,
): string[] => {
  if (!operation) return []
  if (operation.statuses.includes(answer.status)) return contractDrifts(spec, operation, answer, answer.status)
  return [
    `${operation.id}: ${answer.status}, a status the contract does not document (${operation.statuses.join(', ')})`,
    ...deprecationDrifts(operation, answer),
  ]
}
