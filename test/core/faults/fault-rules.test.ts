import { describe, expect, it } from 'vitest'
import { FaultRules } from '../../../src/core/faults/fault-rules.js'
import {
  checkFaultRules,
  createRuleValidator,
  type FaultRuleInput,
  type FaultTarget,
  maxFaultRules,
} from '../../../src/core/faults/rule-check.js'
import { RequestFacts, type RequestProperties, requestFacts, whenFacts } from '../../../src/core/faults/rule-match.js'
import { createRandom } from '../../../src/core/faults/random.js'

const validate = createRuleValidator(['listPets', 'createPet', 'getPet'])

describe('fault rule validation', () => {
  it.each([
    [{}, 'A fault rule needs at least one of status, delayMs, fault'],
    [{ status: 200 }, 'status must be an integer between 400 and 599'],
    [{ status: 600 }, 'status must be an integer between 400 and 599'],
    [{ status: 'x' }, 'status must be an integer between 400 and 599'],
    [{ delayMs: -1 }, 'delayMs must be an integer between 0 and 60000'],
    [{ delayMs: 60001 }, 'delayMs must be an integer between 0 and 60000'],
    [{ fault: 'boom' }, 'fault must be one of connection_reset, empty_response, malformed_body, hang, drip'],
    [{ status: 500, times: 0 }, 'times must be an integer between 1 and 9007199254740991'],
    [{ status: 500, probability: 1.5 }, 'probability must be a number between 0 and 1'],
    [{ status: 500, operation: 'deletePet' }, 'operation must be one of listPets, createPet, getPet'],
    [{ status: 500, petId: 1.5 }, 'petId must be an integer between -9007199254740991 and 9007199254740991'],
    [{ status: 500, delay: 5 }, 'delay is not a known field'],
    [{ status: 500, fault: 'empty_response' }, 'status cannot be combined with fault'],
    [{ status: 404, operation: 'listPets', petId: 1 }, 'petId applies to getPet only'],
    [[], 'A fault rule must be a JSON object'],
  ])('%j → %s', (input, message) => {
    expect(validate(input)).toBe(message)
  })

  it('accepts a full rule', () => {
    const rule = { operation: 'getPet', status: 503, delayMs: 10, times: 2, probability: 0.5, petId: 7 }
    expect(validate(rule)).toEqual(rule)
  })
})

describe('FaultRules', () => {
  const rules = (initial = []) => new FaultRules(createRandom(1), initial)

  it('applies the first matching rule in creation order', () => {
    const r = rules()
    r.add({ operation: 'getPet', status: 404 })
    r.add({ status: 500 })
    expect(r.match({ operation: 'getPet', petId: '1' })?.status).toBe(404)
    expect(r.match({ operation: 'listPets' })?.status).toBe(500)
  })

  it('counts times down and drops the rule at zero', () => {
    const r = rules()
    const added = r.add({ status: 503, times: 2 })
    expect(added).toEqual({ id: 1, status: 503, times: 2, remaining: 2 })
    expect(r.match({ operation: 'listPets' })?.remaining).toBe(1)
    expect(r.list()).toEqual([{ id: 1, status: 503, times: 2, remaining: 1 }])
    expect(r.match({ operation: 'listPets' })?.remaining).toBe(0)
    expect(r.match({ operation: 'listPets' })).toBeUndefined()
    expect(r.size).toBe(0)
  })

  it('restricts a petId rule to getPet of that id', () => {
    const r = rules()
    r.add({ petId: 7, status: 500 })
    expect(r.match({ operation: 'getPet', petId: '8' })).toBeUndefined()
    expect(r.match({ operation: 'listPets' })).toBeUndefined()
    expect(r.match({ operation: 'getPet', petId: '7' })?.status).toBe(500)
  })

  it('draws probabilities from the seed: the same seed replays exactly', () => {
    const run = (seed: number) => {
      const r = new FaultRules(createRandom(seed), [{ status: 500, probability: 0.3 }])
      return Array.from({ length: 200 }, () => (r.match({ operation: 'listPets' }) ? 1 : 0)).join('')
    }
    expect(run(5)).toBe(run(5))
    expect(run(5)).not.toBe(run(6))
    const hits = [...run(5)].filter((x) => x === '1').length
    expect(hits).toBeGreaterThan(30)
    expect(hits).toBeLessThan(90)
  })

  it('removes and clears', () => {
    const r = rules()
    r.add({ status: 500 })
    r.add({ status: 502 })
    expect(r.remove(1)).toBe(true)
    expect(r.remove(1)).toBe(false)
    expect(r.list().map((x) => x.id)).toEqual([2])
    r.clear()
    expect(r.size).toBe(0)
    expect(r.add({ status: 500 })).toMatchObject({ id: 3 })
  })

  it(`holds at most ${maxFaultRules} rules: the next add changes nothing and says 'full'`, () => {
    const r = new FaultRules(createRandom(1))
    for (let i = 0; i < maxFaultRules; i++) expect(r.add({ status: 500 })).toMatchObject({ id: i + 1 })
    expect(r.add({ status: 503 })).toBe('full')
    expect(r.size).toBe(maxFaultRules)
    expect(r.nextId).toBe(maxFaultRules + 1)
    r.remove(1)
    expect(r.add({ status: 503 })).toMatchObject({ id: maxFaultRules + 1, status: 503 })
  })

  it('refuses a start-up list longer than the cap, naming the source', () => {
    const rules = Array.from({ length: maxFaultRules + 1 }, () => ({ status: 500 }))
    expect(checkFaultRules(rules, (input) => input as FaultRuleInput, '--faults rules.yaml')).toBe(
      `--faults rules.yaml: ${maxFaultRules + 1} fault rules exceed the most a session holds, ${maxFaultRules}`,
    )
  })
})

describe('FaultRules with conditions (when)', () => {
  const facts = (list: string[]) => new RequestFacts(() => list)
  const target = (request: RequestProperties): FaultTarget => ({
    operation: 'createPet',
    facts: new RequestFacts(() => requestFacts(request)),
  })

  it('a rule with when matches only a request offering every fact it requires', () => {
    const r = new FaultRules(createRandom(1))
    r.add({
      status: 503,
      when: { apiKey: 'k1', headers: { 'User-Agent': 'app/1' }, body: { name: 'Rex', categoryId: 3 } },
    })
    const base: RequestProperties = {
      apiKey: { key: 'k1', fingerprint: 'sha256:ffffffffffff' },
      headers: { 'user-agent': 'app/1', accept: '*/*' },
      query: {},
      body: { name: 'Rex', categoryId: 3, status: 'sold' },
    }
    expect(r.match(target({ ...base, body: { name: 'Rex', categoryId: 4 } }))).toBeUndefined()
    expect(r.match(target({ ...base, headers: { 'user-agent': 'app/2' } }))).toBeUndefined()
    expect(r.match(target({ ...base, apiKey: undefined }))).toBeUndefined()
    expect(r.match({ operation: 'createPet' })).toBeUndefined()
    expect(r.match(target(base))?.status).toBe(503)
  })

  it('the facts of a rule and of a request are the same strings: the language the Redis script compares too', () => {
    expect(
      whenFacts({
        apiKey: { fingerprint: 'sha256:abcd01234567' },
        headers: { 'X-A': 'v' },
        query: { limit: '5' },
        body: { n: 1 },
      }),
    ).toEqual(['["f","sha256:abcd01234567"]', '["h","x-a","v"]', '["q","limit","5"]', '["b","n","1"]'])
    expect(
      requestFacts({
        apiKey: { key: 'k', fingerprint: 'sha256:abcd01234567' },
        headers: { 'x-a': 'v' },
        query: { limit: ['5', '6'] },
        body: { n: 1.0, deep: { no: 1 }, list: [1] },
      }),
    ).toEqual([
      '["k","k"]',
      '["f","sha256:abcd01234567"]',
      '["h","x-a","v"]',
      '["q","limit","5"]',
      '["q","limit","6"]',
      '["b","n","1"]',
    ])
    const r = new FaultRules(createRandom(1), [{ status: 500, when: { query: { limit: '6' } } }])
    expect(r.match({ operation: 'listPets', facts: facts(['["q","limit","6"]']) })?.status).toBe(500)
  })

  it('facts are made once, and only when a rule with conditions is reached', () => {
    let made = 0
    const counting = new RequestFacts(() => {
      made++
      return ['["h","x-a","v"]']
    })
    const r = new FaultRules(createRandom(1), [
      { operation: 'getPet', status: 404 },
      { status: 500, when: { headers: { 'x-a': 'w' } } },
      { status: 502, when: { headers: { 'x-a': 'v' } } },
    ])
    expect(r.match({ operation: 'getPet', petId: '1', facts: counting })?.status).toBe(404)
    expect(made).toBe(0)
    expect(r.match({ operation: 'listPets', facts: counting })?.status).toBe(502)
    expect(made).toBe(1)
  })
})
