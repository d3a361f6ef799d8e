import { describe, expect, it } from 'vitest'
import { emptyRuleFields, numberField, ruleBody } from '../../../src/panel/model/form-values.js'
import { presets } from '../../../src/panel/model/presets.js'
import { createRuleValidator } from '../../../src/core/faults/fault-rules.js'

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
