import { describe, expect, it } from 'vitest'
import {
  bodyText,
  duration,
  fileStamp,
  pathWithQuery,
  plural,
  remainingText,
  ruleText,
  shapedByText,
  violationsText,
  statusKind,
  statusText,
} from '../../../src/panel/model/describe.js'
import { dispositionFilename, downloadName } from '../../../src/panel/model/download.js'
import { countByStatus, fileContentType, snapshotFile } from '../../../src/panel/model/pet-state.js'
import type { FaultRule } from '../../../src/panel/types.js'
import { beyondContractRule, clockText, rateText } from '../../../src/panel/model/describe.js'

describe('what the panel writes', () => {
  it('paths keep their query, repeated parameters included', () => {
    expect(pathWithQuery({ path: '/v1/pets', query: {} })).toBe('/v1/pets')
    expect(pathWithQuery({ path: '/v1/pets', query: { limit: '5', status: ['sold', 'pending'] } })).toBe(
      '/v1/pets?limit=5&status=sold&status=pending',
    )
  })

  it.each([
    [0, 'reset', 'reset'],
    [200, 'ok', '200'],
    [308, 'redirect', '308'],
    [404, 'client', '404'],
    [503, 'server', '503'],
  ])('status %i is %s', (status, kind, text) => {
    expect(statusKind(status)).toBe(kind)
    expect(statusText(status)).toBe(text)
  })

  it.each([
    [undefined, ''],
    [[{ by: 'override', status: 503 }], 'override: 503'],
    [[{ by: 'override', delayMs: 300 }], 'override: +300 ms'],
    [[{ by: 'fault', ruleId: 2, status: 503, delayMs: 100 }], 'rule 2: 503, +100 ms'],
    [[{ by: 'fault', ruleId: 4, fault: 'connection_reset' }], 'rule 4: connection reset'],
    [
      [
        { by: 'fault', ruleId: 1, status: 500 },
        { by: 'latency', delayMs: 120 },
      ],
      'rule 1: 500, latency 120 ms',
    ],
  ] as const)('shaping %j reads %j', (shapedBy, text) => {
    expect(shapedByText(shapedBy as Parameters<typeof shapedByText>[0])).toBe(text)
  })

  it.each<[FaultRule, string, string]>([
    [{ id: 1, operation: 'createPet', status: 503, times: 3, remaining: 2 }, 'createPet answers 503', '2 of 3 left'],
    [{ id: 2, delayMs: 2000 }, 'Every operation is slowed by 2000 ms', 'until removed'],
    [
      { id: 3, fault: 'connection_reset', times: 1, remaining: 1 },
      'Every operation fails: connection reset',
      '1 of 1 left',
    ],
    [
      { id: 4, operation: 'getPet', petId: 7, status: 504, delayMs: 1500, probability: 0.3 },
      'getPet of pet 7 answers 504 after 1500 ms, 30 % of calls',
      'until removed',
    ],
  ])('rule %j reads %j, %j', (rule, text, remaining) => {
    expect(ruleText(rule)).toBe(text)
    expect(remainingText(rule)).toBe(remaining)
  })

  it('durations, plurals, bodies', () => {
    expect(duration(0.4234)).toBe('0.42 ms')
    expect(duration(12.6)).toBe('13 ms')
    expect(plural(1, 'rule')).toBe('1 rule')
    expect(plural(0, 'pet')).toBe('0 pets')
    expect(bodyText({ a: 1 })).toBe('{\n  "a": 1\n}')
    expect(bodyText('not json')).toBe('not json')
  })

  it('file names carry the session and a UTC stamp, as the server writes them', () => {
    const stamp = fileStamp(new Date('2030-03-01T14:03:22.512Z'))
    expect(stamp).toBe('20300301T140322Z')
    expect(downloadName('job-42', stamp, '.har')).toBe('petstore-mock-job-42-20300301T140322Z.har')
    expect(dispositionFilename('attachment; filename="a-b.har"')).toBe('a-b.har')
    expect(dispositionFilename('attachment; filename=a.har')).toBe('a.har')
    expect(dispositionFilename(null)).toBeUndefined()
  })

  it('pets are counted by status; files are sent as YAML or JSON by their name', () => {
    expect(
      countByStatus([
        { id: 1, name: 'a', categoryId: 1, status: 'sold' },
        { id: 2, name: 'b', categoryId: 1 },
        { id: 3, name: 'c', categoryId: 1, status: 'sold' },
      ]),
    ).toEqual({ available: 0, pending: 0, sold: 2, none: 1 })
    expect(fileContentType('pets.YAML')).toBe('application/yaml')
    expect(fileContentType('pets.yml')).toBe('application/yaml')
    expect(fileContentType('pets.json')).toBe('application/json')
  })
})

describe('violationsText', () => {
  it.each<[string[] | undefined, string]>([
    [undefined, ''],
    [[], ''],
    [['listPets: item 0 lacks required categoryId'], '1 contract violation'],
    [['a', 'b'], '2 contract violations'],
  ])('%j → %j', (violations, text) => {
    expect(violationsText(violations)).toBe(text)
  })
})

describe('rules with an answer of their own and a target client, in words', () => {
  it.each<[FaultRule, string]>([
    [
      {
        id: 1,
        operation: 'listPets',
        status: 502,
        headers: { 'Content-Type': 'text/html' },
        body: '<h1>502</h1>',
        breaksContract: true,
        when: { headers: { 'User-Agent': 'mobile-app/1.0' } },
      },
      'listPets answers 502 (own answer, text/html, beyond the contract) when user-agent: mobile-app/1.0',
    ],
    [
      {
        id: 2,
        operation: 'getPet',
        status: 200,
        body: { id: 1, name: 'x', categoryId: 1 },
        when: { apiKey: { fingerprint: 'sha256:4c5dc9b77089' } },
      },
      'getPet answers 200 (own answer) when API key fingerprint sha256:4c5dc9b77089',
    ],
    [
      {
        id: 3,
        operation: 'createPet',
        status: 400,
        when: { apiKey: 'mobile-secret', body: { name: 'Rex', categoryId: 3 } },
      },
      'createPet answers 400 when API key mobi…, body name = "Rex", body categoryId = 3',
    ],
    [
      { id: 4, fault: 'hang', delayMs: 5000, when: { query: { status: 'sold' } } },
      'Every operation fails: hang, held 5000 ms at most when status=sold',
    ],
    [{ id: 5, operation: 'listPets', fault: 'drip' }, 'listPets fails: drip'],
  ])('%j', (rule, text) => {
    expect(ruleText(rule)).toBe(text)
  })

  it('says when an answer was beyond the contract, and which rule made it', () => {
    const shapedBy = [
      { by: 'fault' as const, ruleId: 3, status: 502, custom: true as const, breaksContract: true as const },
    ]
    expect(shapedByText(shapedBy)).toBe('rule 3: 502, own answer, beyond the contract')
    expect(beyondContractRule(shapedBy)).toBe(3)
    expect(beyondContractRule([{ by: 'fault', ruleId: 1, status: 200, custom: true }])).toBeUndefined()
    expect(beyondContractRule(undefined)).toBeUndefined()
  })
})

describe('the clock and the rate limit, in words', () => {
  it.each([
    [undefined, '–'],
    [{ now: '2031-01-01T00:00:00.000Z', frozen: true, real: false }, '2031-01-01T00:00:00.000Z, frozen'],
    [{ now: '2031-01-01T00:00:00.000Z', frozen: false, real: false }, '2031-01-01T00:00:00.000Z, advancing'],
    [{ now: '2026-01-01T00:00:00.000Z', frozen: false, real: true }, 'Real time'],
  ])('clock %j → %j', (clock, text) => {
    expect(clockText(clock)).toBe(text)
  })

  it.each([
    [undefined, '–'],
    [{ rate: null }, 'No limit'],
    [{ rate: '100/m', limit: 100, windowSeconds: 60, keys: 1 }, '100/m per API key, 1 key counted'],
    [{ rate: '2/s', limit: 2, windowSeconds: 1, keys: 3 }, '2/s per API key, 3 keys counted'],
  ] as const)('rate %j → %j', (rate, text) => {
    expect(rateText(rate)).toBe(text)
  })

  it('of files dropped together, the snapshot is the one that is no HAR', () => {
    const file = (name: string) => new File(['x'], name)
    expect(snapshotFile([file('a.har'), file('a.snapshot.yaml')])?.name).toBe('a.snapshot.yaml')
    expect(snapshotFile([file('a.har')])?.name).toBe('a.har')
    expect(snapshotFile([])).toBeUndefined()
  })
})
