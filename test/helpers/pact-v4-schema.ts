/**
 * A JSON Schema (draft-07) of the Pact Specification V4 file format, written here from the text of
 * the specification (pact-foundation/pact-specification, branch version-4: "File format",
 * "Synchronous/HTTP", "Request", "Response", "Provider states", "Bodies", "Matching Rules",
 * "Metadata"), for the Synchronous/HTTP interactions the mock writes. Strict where the
 * specification lists the fields (no others), so that a field the mock misspells fails here.
 */

const stringList = { type: 'array', items: { type: 'string' } }
const stringMap = { type: 'object', additionalProperties: stringList }

// "Supported matching rules": the `match` names of V1 to V4.
const matchNames = [
  'equality',
  'regex',
  'type',
  'include',
  'integer',
  'decimal',
  'number',
  'datetime',
  'time',
  'date',
  'null',
  'boolean',
  'contentType',
  'values',
  'arrayContains',
  'statusCode',
  'notEmpty',
  'semver',
  'eachKey',
  'eachValue',
]

const matcher = {
  type: 'object',
  required: ['match'],
  properties: {
    match: { enum: matchNames },
    regex: { type: 'string' },
    min: { type: 'integer', minimum: 0 },
    max: { type: 'integer', minimum: 0 },
    value: { type: 'string' },
    format: { type: 'string' },
  },
  allOf: [
    { if: { properties: { match: { const: 'regex' } } }, then: { required: ['regex'] } },
    { if: { properties: { match: { const: 'include' } } }, then: { required: ['value'] } },
  ],
}

// "Matching Rules": each rule is `matchers` (a list) and an optional `combine`.
const rule = {
  type: 'object',
  additionalProperties: false,
  required: ['matchers'],
  properties: { matchers: { type: 'array', minItems: 1, items: matcher }, combine: { enum: ['AND', 'OR'] } },
}

const matchingRules = {
  type: 'object',
  additionalProperties: false,
  properties: {
    path: rule,
    query: { type: 'object', additionalProperties: rule },
    header: { type: 'object', additionalProperties: rule },
    // Body rules are keyed by a JSON-path-like expression starting at `$`.
    body: { type: 'object', propertyNames: { pattern: '^\\$' }, additionalProperties: rule },
    status: rule,
  },
}

// "Bodies": contentType, encoded (false or the encoding), content, contentTypeHint.
const body = {
  type: 'object',
  additionalProperties: false,
  required: ['content', 'contentType', 'encoded'],
  properties: {
    content: {},
    contentType: { type: 'string', minLength: 1 },
    encoded: { anyOf: [{ const: false }, { type: 'string' }] },
    contentTypeHint: { enum: ['BINARY', 'TEXT'] },
  },
  if: { properties: { encoded: { type: 'string' } } },
  then: { properties: { content: { type: 'string' } } },
}

const request = {
  type: 'object',
  additionalProperties: false,
  required: ['method', 'path'],
  properties: {
    method: { type: 'string', pattern: '^[A-Za-z]+$' },
    path: { type: 'string', pattern: '^/' },
    query: stringMap,
    headers: stringMap,
    body,
    matchingRules,
    generators: { type: 'object' },
  },
}

const response = {
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: {
    status: { type: 'integer', minimum: 100, maximum: 599 },
    headers: stringMap,
    body,
    matchingRules,
    generators: { type: 'object' },
  },
}

const providerState = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1 }, params: { type: 'object' } },
}

const interaction = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'description', 'request', 'response'],
  properties: {
    type: { const: 'Synchronous/HTTP' },
    description: { type: 'string', minLength: 1 },
    key: { type: 'string', minLength: 1 },
    providerStates: { type: 'array', items: providerState },
    pending: { type: 'boolean' },
    comments: { type: 'object' },
    pluginConfiguration: { type: 'object' },
    interactionMarkup: { type: 'object' },
    request,
    response,
  },
}

/** Pact V4, Synchronous/HTTP interactions. */
export const pactV4Schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Pact V4 (Synchronous/HTTP)',
  type: 'object',
  required: ['consumer', 'provider', 'interactions', 'metadata'],
  properties: {
    consumer: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } },
    provider: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } },
    interactions: { type: 'array', items: interaction },
    metadata: {
      type: 'object',
      required: ['pactSpecification'],
      properties: {
        pactSpecification: {
          type: 'object',
          required: ['version'],
          properties: { version: { const: '4.0' } },
        },
      },
    },
  },
}
