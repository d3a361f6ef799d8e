import type { ErrorObject } from 'ajv'
import type { SchemaObject } from './schema.js'

const SAFE = Number.MAX_SAFE_INTEGER
const INT64_MIN = '-9223372036854775808'
const INT64_MAX = '9223372036854775807'

/** Where a value came from: decides how an int64 range is stated. */
export type ValueSource = 'json' | 'text'

const integerRange = (schema: SchemaObject, source: ValueSource): [string, string] | undefined => {
  const wide: [string, string] | undefined =
    schema.format === 'int64'
      ? source === 'json'
        ? [String(-SAFE), String(SAFE)]
        : [INT64_MIN, INT64_MAX]
      : schema.format === 'int32'
        ? [String(-(2 ** 31)), String(2 ** 31 - 1)]
        : undefined
  const min = schema.minimum !== undefined ? String(schema.minimum) : wide?.[0]
  const max = schema.maximum !== undefined ? String(schema.maximum) : wide?.[1]
  if (min === undefined && max === undefined) return undefined
  return [min ?? '-∞', max ?? '∞']
}

/** "must be …": what a schema accepts, in words a person can act on. */
export const expectation = (schema: SchemaObject, source: ValueSource = 'json'): string => {
  if (schema.enum) return `must be one of ${schema.enum.map(String).join(', ')}`
  switch (schema.type) {
    case 'integer': {
      const range = integerRange(schema, source)
      return range ? `must be an integer between ${range[0]} and ${range[1]}` : 'must be an integer'
    }
    case 'string':
      return 'must be a string'
    case 'number':
      return schema.minimum !== undefined && schema.maximum !== undefined
        ? `must be a number between ${schema.minimum} and ${schema.maximum}`
        : 'must be a number'
    case 'boolean':
      return 'must be true or false'
    case 'array':
      return 'must be an array'
    case 'object':
      return 'must be a JSON object'
    default:
      return 'is not valid'
  }
}

const fieldName = (instancePath: string): string =>
  instancePath
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.')

/** One sentence naming the field that failed: the first Ajv error, in words. */
export const describeSchemaError = (error: ErrorObject, subject: string): string => {
  if (error.keyword === 'required') {
    const missing = String(error.params['missingProperty'])
    const parent = fieldName(error.instancePath)
    return `${parent ? `${parent}.` : ''}${missing} is required`
  }
  if (error.keyword === 'additionalProperties') {
    const parent = fieldName(error.instancePath)
    return `${parent ? `${parent}.` : ''}${String(error.params['additionalProperty'])} is not a known field`
  }
  const field = fieldName(error.instancePath)
  const schema = (error.parentSchema ?? {}) as SchemaObject
  return `${field || subject} ${expectation(schema)}`
}
