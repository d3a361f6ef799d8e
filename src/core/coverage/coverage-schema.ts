/**
 * The JSON Schema (draft-07) of GET /__admin/coverage and of
 * `petstore-mock coverage --format json`, shipped with the package
 * (`import { coverageSchema } from 'petstore-mock'`): a pipeline that keeps
 * the report can check it. The tests check every report against it.
 */
export const coverageSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'petstore-mock contract coverage',
  type: 'object',
  additionalProperties: false,
  required: ['session', 'covered', 'total', 'percent', 'requests', 'responses', 'inputs'],
  properties: {
    session: { type: 'string', description: 'The session counted (X-Mock-Session; default).' },
    covered: { type: 'integer', minimum: 0, description: 'Documented responses that at least one request got.' },
    total: { type: 'integer', minimum: 0, description: 'Documented responses of the contract.' },
    percent: { type: 'number', minimum: 0, maximum: 100, description: 'covered / total × 100, to one decimal.' },
    requests: { type: 'integer', minimum: 0, description: "Answers of the contract's operations counted." },
    responses: {
      type: 'array',
      description: 'Every documented response, then the statuses answered beyond the contract.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['operation', 'status', 'documented', 'requests', 'injected', 'covered'],
        properties: {
          operation: { type: 'string' },
          status: { type: 'integer', minimum: 100, maximum: 599 },
          documented: { type: 'boolean' },
          requests: { type: 'integer', minimum: 0 },
          injected: { type: 'integer', minimum: 0, description: 'Of which a fault rule, Prefer or __code made.' },
          covered: { type: 'boolean' },
          breaksContract: {
            const: true,
            description: "A fault rule's own answers marked breaksContract: beyond the contract, covering nothing.",
          },
        },
      },
    },
    inputs: {
      type: 'array',
      description: 'The classes of input derived from the contract, each with its count.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['operation', 'in', 'name', 'class', 'description', 'requests', 'covered'],
        properties: {
          operation: { type: 'string' },
          in: { enum: ['query', 'path', 'body'] },
          name: { type: 'string' },
          class: { type: 'string' },
          description: { type: 'string' },
          requests: { type: 'integer', minimum: 0 },
          covered: { type: 'boolean' },
        },
      },
    },
  },
} as const
