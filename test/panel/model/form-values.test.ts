import { describe, expect, it } from 'vitest'
import {
  bodyValue,
  emptyRuleFields,
  numberField,
  pairLines,
  ruleBody,
  ruleRequest,
} from '../../../src/panel/model/form-values.js'
import { presets } from '../../../src/panel/model/presets.js'
import { createRuleValidator } from '../../../src/core/faults/rule-check.js'

describe('the rule form', () => {
  it.each([
    ['', undefined],
    ['  ', undefined],
    ['503', 503],
    [' 0.25 ', 0.25],
    ['.5', 0.5],
    ['-3', -3],
    // Left for the server to refuse in its words: never dropped, rounded or coerced here.
    ['abc', 'abc'],
    ['1e3', '1e3'],
    ['9007199254740993', '9007199254740993'],
  ])('%j is sent as %j', (text, value) => {
    expect(numberField(text)).toBe(value)
  })

  it('sends the fields that are set, and only those', () => {
    expect(ruleBody(emptyRuleFields)).toEqual({})
    expect(ruleBody({ ...emptyRuleFields, operation: 'createPet', status: '503', times: '2' })).toEqual({
      operation: 'createPet',
      status: 503,
      times: 2,
    })
    expect(
      ruleBody({
        ...emptyRuleFields,
        operation: 'getPet',
        status: '',
        fault: 'connection_reset',
        delayMs: '10',
        times: '1',
        probability: '0.5',
        petId: '7',
      }),
    ).toEqual({ operation: 'getPet', fault: 'connection_reset', delayMs: 10, times: 1, probability: 0.5, petId: 7 })
  })

  it('an answer of its own and the conditions of a client, as the admin API takes them', () => {
    const fields = {
      ...emptyRuleFields,
      operation: 'listPets',
      status: '502',
      answerHeaders: 'Content-Type: text/html\n\nX-Served-By:  edge-3 \n',
      answerBody: '<h1>502</h1>',
      breaksContract: true,
      apiKey: 'sha256:4c5dc9b77089',
      keyKind: 'fingerprint' as const,
      whenHeaders: 'User-Agent: mobile-app/1.0 (iOS: 17)',
      whenQuery: 'status=sold',
      whenBody: 'name: Rex\ncategoryId: 3\nstatus: "3"\nflag: true',
    }
    expect(ruleBody(fields)).toEqual({
      operation: 'listPets',
      status: 502,
      headers: { 'Content-Type': 'text/html', 'X-Served-By': 'edge-3' },
      body: '<h1>502</h1>',
      breaksContract: true,
      when: {
        apiKey: { fingerprint: 'sha256:4c5dc9b77089' },
        headers: { 'User-Agent': 'mobile-app/1.0 (iOS: 17)' },
        query: { status: 'sold' },
        body: { name: 'Rex', categoryId: 3, status: '3', flag: true },
      },
    })
    expect(JSON.parse(ruleRequest(fields))).toEqual(ruleBody(fields))
    const validate = createRuleValidator(['listPets', 'createPet', 'getPet'])
    expect(validate({ ...ruleBody(fields), when: { apiKey: { fingerprint: 'sha256:4c5dc9b77089' } } })).toMatchObject({
      status: 502,
    })
  })

  it('splices a JSON answer body in as typed: no digit rounded, a typo left for the server to name', () => {
    const json = { ...emptyRuleFields, operation: 'getPet', status: '200', bodyKind: 'json' as const }
    expect(ruleRequest({ ...json, answerBody: '{"id":1,"name":"Rex","categoryId":9007199254740993}' })).toBe(
      '{"operation":"getPet","status":200,"body":{"id":1,"name":"Rex","categoryId":9007199254740993}}',
    )
    expect(ruleRequest({ ...emptyRuleFields, bodyKind: 'json', answerBody: '[]' })).toBe('{"body":[]}')
    expect(ruleRequest({ ...json, answerBody: '{"id":' })).toBe('{"operation":"getPet","status":200,"body":{"id":}')
    expect(ruleRequest({ ...json, answerBody: '   ' })).toBe('{"operation":"getPet","status":200}')
  })

  it.each([
    ['a: 1\n\nb:2', ':', { a: '1', b: '2' }],
    ['no separator', ':', { 'no separator': '' }],
    ['q=a=b', '=', { q: 'a=b' }],
    ['  \n ', ':', undefined],
  ] as const)('pairLines(%j) is %j', (text, separator, pairs) => {
    expect(pairLines(text, separator)).toEqual(pairs)
  })

  it.each([
    ['3', 3],
    ['true', true],
    ['null', null],
    ['"3"', '3'],
    ['Rex', 'Rex'],
    ['9007199254740993', '9007199254740993'],
  ])('a body field typed %j is %j', (text, value) => {
    expect(bodyValue(text)).toEqual(value)
  })

  it('every preset is a rule the server accepts', () => {
    const validate = createRuleValidator(['listPets', 'createPet', 'getPet'])
    for (const preset of presets) expect(validate(preset.rule)).toEqual(preset.rule)
    expect(presets.map((p) => p.label)).toEqual([
      'Next createPet fails with 400',
      'Next createPet fails with 401',
      'Next createPet fails with 503',
      'getPet answers 404',
      'Every call 2 s slower',
      'Next call resets the connection',
    ])
  })
})
