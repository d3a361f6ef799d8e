import { Ajv2020 } from 'ajv/dist/2020.js'
import type { ValidateFunction } from 'ajv'
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import { faultKinds, maxDelayMs, ruleNamePattern } from '../../../src/core/faults/rule-check.js'
import { maxAnswerHeaders } from '../../../src/core/faults/rule-answer.js'
import { fingerprintPattern } from '../../../src/core/http/request/key-fingerprint.js'
import { faultRule } from '../../../src/generated/validators.js'
import { contractApp } from '../../helpers/contract.js'

// One schema of a fault rule: admin-openapi.yaml's FaultRuleInput documents it to clients and is the
// very schema the server validates with (compiled into src/generated/validators.ts by npm run generate;
// what no schema can say, such as the contract's operations, is checked after it).
const document = parse(readFileSync(new URL('../../../admin-openapi.yaml', import.meta.url), 'utf8'))
const schemas = document.components.schemas
const ajv = new Ajv2020({ strict: false, validateFormats: false })
ajv.addSchema({ $id: 'admin', components: document.components })
const documented = ajv.compile({ $ref: 'admin#/components/schemas/FaultRuleInput' })
const generated = faultRule as ValidateFunction

const headers21 = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`x-h${i}`, 'v']))

const rules: unknown[] = [
  { status: 503 },
  { operation: 'listPets', status: 500, times: 2, probability: 0.5 },
  { fault: 'hang', delayMs: 60_000 },
  { petId: 7, status: 404 },
  { status: 200, headers: { 'Content-Type': 'text/html' }, body: '<p/>', breaksContract: true },
  { status: 502, body: { any: ['json'] }, breaksContract: false },
  { status: 500, when: { apiKey: 'mobile-key', headers: { 'User-Agent': 'app/1' }, query: { status: 'sold' } } },
  { status: 500, when: { apiKey: { fingerprint: 'sha256:4c5dc9b77089' }, body: { name: 'Rex' } } },
  // Refused by the schema:
  { status: 199 },
  { status: 600 },
  { delayMs: 60_001 },
  { delayMs: -1 },
  { fault: 'explode' },
  { status: 500, times: 0 },
  { status: 500, times: 2 ** 53 },
  { status: 500, probability: 1.5 },
  { status: 500, petId: 1.5 },
  { status: 500, nickname: 'x' },
  { status: 500, breaksContract: 'yes' },
  { status: 502, headers: { 'x-a': 1 }, breaksContract: true },
  { status: 502, headers: headers21, breaksContract: true },
  { status: 500, when: { apiKey: 5 } },
  { status: 500, when: { apiKey: { fingerprint: 'XYZ' } } },
  { status: 500, when: { apiKey: { fingerprint: 'sha256:4c5dc9b77089', key: 'x' } } },
  { status: 500, when: { headers: { a: 1 } } },
  { status: 500, when: { query: 'status=sold' } },
  { status: 500, when: { cookie: 'x' } },
  'a rule',
  [],
  null,
]

describe("a fault rule's schema is admin-openapi.yaml's FaultRuleInput, and only that", () => {
  it.each(rules.map((rule) => [JSON.stringify(rule), rule]))(
    'the server’s validator and the document agree on %s',
    (_, rule) => {
      expect(generated(rule)).toBe(documented(rule))
    },
  )

  it('the table holds rules both accept and rules both refuse', () => {
    expect(rules.filter((rule) => documented(rule)).length).toBe(8)
    expect(rules.filter((rule) => !documented(rule)).length).toBe(rules.length - 8)
  })

  it('the limits the code states elsewhere are the document’s', () => {
    expect(schemas.FaultKind.enum).toEqual([...faultKinds])
    expect(schemas.FaultRuleInput.properties.delayMs.maximum).toBe(maxDelayMs)
    expect(schemas.FaultRuleInput.properties.headers.maxProperties).toBe(maxAnswerHeaders)
    expect(schemas.RuleName.pattern).toBe(ruleNamePattern)
    expect(schemas.RuleWhen.properties.apiKey.oneOf[1].properties.fingerprint.pattern).toBe(fingerprintPattern.source)
  })
})

describe('POST /__admin/faults refuses what the document refuses, naming the field', () => {
  it.each([
    [{ status: 500, breaksContract: 'yes' }, 'breaksContract must be true or false.'],
    [{ status: 502, headers: { 'x-a': 1 }, breaksContract: true }, 'headers.x-a must be a string.'],
    [{ status: 502, headers: headers21, breaksContract: true }, 'headers may hold at most 20 headers.'],
    [{ status: 500, when: { headers: { a: 1 } } }, 'when.headers.a must be a string.'],
    [{ status: 500, when: { query: 'status=sold' } }, 'when.query must be a JSON object.'],
    [{ status: 500, times: 2 ** 53 }, 'times must be an integer between 1 and 9007199254740991.'],
    [{ fault: 'explode' }, 'fault must be one of connection_reset, empty_response, malformed_body, hang, drip.'],
  ])('%j: 400 %s', async (rule, message) => {
    const { request } = contractApp()
    const res = await request('/__admin/faults', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(rule),
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ code: 'bad_request', message, status: 400 })
  })

  it('takes breaksContract: false (what generated clients send by default) and answers it as the document says', async () => {
    const { request } = contractApp()
    const rule = { operation: 'listPets', status: 503, body: { code: 'x', message: 'y.', status: 503 } }
    const res = await request('/__admin/faults', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...rule, breaksContract: false }),
    })
    expect(res.status).toBe(201)
    expect(await res.json()).toEqual({ id: 1, ...rule, breaksContract: false })
  })
})
