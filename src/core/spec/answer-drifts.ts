import type { ErrorObject } from 'ajv'
import { isJsonType } from '../http/json.js'
import { expectation } from './messages.js'
import { resolveSchema, type SchemaObject } from './schema.js'
import type { Spec, SpecOperation } from './spec.js'

/** An answer as a client received it, read whole (verify's, or the proxy's from the deployment). */
export interface ObservedAnswer {
  status: number
  headers: Headers
  text: string
  /** The body parsed, when its Content-Type says JSON and it parses. */
  json?: unknown
  /** Why a body said to be JSON did not parse. */
  jsonError?: string
}

const clip = (text: string): string => `"${text.length > 40 ? `${text.slice(0, 40)}…` : text}"`

/** The name of the schema the contract documents for a status (`Pet`, `Pets`, `Error`), for messages. */
export const schemaName = (spec: Spec, operation: SpecOperation, status: number): string => {
  const raw = spec.document['paths']?.[operation.path]?.[operation.method.toLowerCase()]?.responses?.[status]
  if (!raw) return 'the documented body'
  const response = resolveSchema<any>(spec.document, raw)
  const ref: string | undefined = response.content?.['application/json']?.schema?.$ref
  return ref ? ref.slice(ref.lastIndexOf('/') + 1) : 'the documented body'
}

const where = (instancePath: string): string => {
  const parts = instancePath.split('/').slice(1)
  if (parts.length === 0) return ''
  const [first, ...rest] = parts
  const head = /^\d+$/.test(first!) ? `item ${first}` : first!
  return rest.length === 0 ? head : `${head} ${rest.join('.')}`
}

/** One schema error in words: `item 0 lacks required categoryId`, `id must be an integer (got "7")`. */
const describe = (error: ErrorObject): string => {
  const at = where(error.instancePath)
  if (error.keyword === 'required')
    return `${at ? `${at} ` : ''}lacks required ${String(error.params['missingProperty'])}`
  const schema = (
    error.keyword === 'type' ? { type: error.params['type'] } : (error.parentSchema ?? {})
  ) as SchemaObject
  return `${at || 'the body'} ${expectation(schema)} (got ${JSON.stringify(error.data)})`
}

/**
 * Every way an answer departs from what the contract says `operation`
 * answers with `expected`: the status, then (only when it is the one due)
 * the Content-Type, the body against the documented schema, an `Error`'s
 * `status`, and a deprecated operation's headers. Each sentence names the
 * operation, what the contract says and what came back.
 */
export const contractDrifts = (
  spec: Spec,
  operation: SpecOperation,
  answer: ObservedAnswer,
  expected: number,
): string[] => {
  const id = operation.id
  const drifts = deprecationDrifts(operation, answer)
  if (answer.status !== expected) {
    const documented = operation.statuses.includes(answer.status) ? '' : ` (a status it does not document)`
    return [`${id}: ${answer.status}, the contract says ${expected}${documented}`, ...drifts]
  }
  const validate = operation.responseValidator(expected)
  if (!validate) return drifts
  const name = schemaName(spec, operation, expected)
  const type = answer.headers.get('content-type')
  if (!isJsonType(type)) {
    const got = type === null ? 'no Content-Type' : `Content-Type ${type}`
    return [
      `${id}: ${expected} body is ${got} (${clip(answer.text)}), the contract says application/json ${name}`,
      ...drifts,
    ]
  }
  if (answer.jsonError !== undefined) return [`${id}: ${expected} body is not JSON (${clip(answer.text)})`, ...drifts]
  if (!validate(answer.json)) {
    const what = describe(validate.errors![0]!)
    const drift =
      name === 'Error'
        ? `${id}: ${expected} body is not an Error: ${what}`
        : `${id}: ${what}, the contract says ${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}`
    return [drift, ...drifts]
  }
  if (name === 'Error' && (answer.json as { status: unknown }).status !== expected) {
    return [`${id}: Error.status is ${(answer.json as { status: unknown }).status} on a ${expected} answer`, ...drifts]
  }
  return drifts
}

/** A deprecated operation's promised headers: `Deprecation`, and `Sunset` at its `x-sunset`. */
export const deprecationDrifts = (operation: SpecOperation, answer: ObservedAnswer): string[] => {
  if (!operation.deprecated) return []
  const drifts: string[] = []
  if (answer.headers.get('deprecation') === null) {
    drifts.push(`${operation.id}: no Deprecation header, the contract marks ${operation.id} deprecated`)
  }
  if (operation.sunset) {
    const sunset = answer.headers.get('sunset')
    const due = operation.sunset.toUTCString()
    if (sunset === null) drifts.push(`${operation.id}: no Sunset header, the contract says ${due}`)
    else if (Date.parse(sunset) !== operation.sunset.getTime()) {
      drifts.push(`${operation.id}: Sunset is ${sunset}, the contract says ${due}`)
    }
  }
  return drifts
}
