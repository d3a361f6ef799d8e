import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { FaultRuleInput } from '../../../src/core/faults/rule-check.js'
import { banner, reachableUrl } from '../../../src/node/cli/banner.js'
import { configDefaults, type Config } from '../../../src/node/config/config.js'
import { spawnServer } from '../../helpers/spawn-server.js'
import { bearer } from '../../helpers/auth.js'
import { packageVersion } from '../../../src/generated/contract.js'

const config = (over: Partial<Config>): Config => ({ ...configDefaults, log: 'silent', ...over })
const lines = (over: Partial<Config>, listening = 'http://127.0.0.1:4010') =>
  banner(listening, config(over), 'fixtures/pets.yaml (bundled)', 12).split('\n')

describe('the banner', () => {
  it.each([
    // [listening on, the URL to open, whether it says all interfaces]
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010', false],
    ['http://localhost:4010', 'http://localhost:4010', false],
    ['http://192.168.1.20:8080', 'http://192.168.1.20:8080', false],
    ['http://[::1]:4010', 'http://[::1]:4010', false],
    ['http://0.0.0.0:4010', 'http://127.0.0.1:4010', true],
    ['http://[::]:4010', 'http://127.0.0.1:4010', true],
    ['http://[0:0::0]:5000', 'http://127.0.0.1:5000', true],
  ])('listening on %s: opens %s (all interfaces: %s)', (listening, url, allInterfaces) => {
    expect(reachableUrl(listening)).toEqual({ url, allInterfaces })
  })

  it.each([
    ['0.0.0.0', 'http://0.0.0.0:4010'],
    ['::', 'http://[::]:4010'],
  ])('--host %s: every URL it prints can be opened, and it says it listens on all interfaces', (host, listening) => {
    const text = lines({ host }, listening)
    expect(text[0]).toBe(
      `petstore-mock ${packageVersion} listening on http://127.0.0.1:4010 (on all interfaces, --host ${host}: from other machines, use this one's name or address)`,
    )
    expect(text.join('\n')).not.toMatch(/http:\/\/(0\.0\.0\.0|\[::\])/)
    expect(text).toContain("  try:   curl -H 'Authorization: Bearer any-token' http://127.0.0.1:4010/v1/pets")
  })

  it.each([
    // [API keys, the auth line, what must never be printed]
    [[], 'any well-formed bearer token (no --api-key set)', []],
    [['team-a'], '1 configured API key(s): Bearer …', ['team-a', 'te…']],
    [['team-a-secret-key'], '1 configured API key(s): Bearer te…', ['team-a-secret-key', 'team-a']],
    [['alpha-key-1', 'beta-key-22'], '2 configured API key(s): Bearer al…, Bearer be…', ['alpha-key', 'beta-key']],
    [
      ['k1-longer-one', 'k2-longer-one', 'k3-longer-one', 'k4-longer-one'],
      '4 configured API key(s): Bearer k1…, Bearer k2…, Bearer k3…, 1 more',
      ['longer'],
    ],
  ])('API keys %j: auth %j, never the key', (apiKeys, auth, secrets) => {
    const text = lines({ apiKeys })
    expect(text[1]).toBe(`  auth:  ${auth}`)
    for (const secret of secrets) expect(text.join('\n')).not.toContain(secret)
    expect(text.at(-2)).toBe(
      `  try:   curl -H 'Authorization: Bearer ${apiKeys.length > 0 ? '<your API key>' : 'any-token'}' http://127.0.0.1:4010/v1/pets`,
    )
  })

  it('hides the password of a --proxy URL and of a --store URL', () => {
    const text = lines({
      proxy: 'https://qa:hunter2@staging.example.com/v1',
      store: 'redis://user:hunter2@redis:6379',
    }).join('\n')
    expect(text).not.toContain('hunter2')
    expect(text).toContain('forwards to https://qa:***@staging.example.com/v1')
    expect(text).toContain('store: redis://user:***@redis:6379')
  })

  it.each([
    [{ min: 0, max: 0 }, undefined],
    [{ min: 250, max: 250 }, '  delay: every /v1 answer 250 ms later (--delay)'],
    [{ min: 100, max: 600 }, '  delay: every /v1 answer 100-600 ms later, a seeded draw (--delay)'],
  ])('--delay %j: %j', (delay, line) => {
    const text = lines({ delay })
    expect(text.filter((l) => l.startsWith('  delay:'))).toEqual(line === undefined ? [] : [line])
  })

  it('names the rules a --faults file installed, one a line, five at most, conditions without their values', () => {
    const rules: FaultRuleInput[] = [
      { operation: 'createPet', status: 503, times: 2 },
      { delayMs: 200, probability: 0.5 },
      { operation: 'getPet', petId: 3, fault: 'connection_reset', times: 1 },
      { operation: 'listPets', status: 418, body: 'teapot', breaksContract: true },
      { operation: 'getPet', status: 404, when: { apiKey: 'team-a-secret-key' } },
      { status: 500 },
      { status: 502 },
    ]
    const text = banner('http://127.0.0.1:4010', config({ faults: 'faults.yaml' }), 'x', 12, [], undefined, rules)
    const from = text.indexOf('  faults:')
    expect(text.slice(from).split('\n').slice(0, 7)).toEqual([
      '  faults: 7 rules from faults.yaml, in every session',
      '    rule 1: createPet: 503, 2 times',
      '    rule 2: every operation: +200 ms, probability 0.5',
      '    rule 3: getPet pet 3: connection reset, once',
      '    rule 4: listPets: 418, own answer, beyond the contract',
      '    rule 5: getPet: 404, with conditions',
      '    2 more: GET /__admin/faults',
    ])
    expect(text).not.toContain('team-a')
    expect(lines({}).join('\n')).not.toContain('faults:')
  })
})

describe('the banner of the built command', () => {
  it('on 0.0.0.0 with an API key: a URL that answers, and no key', async () => {
    const server = await spawnServer([
      '--host',
      '0.0.0.0',
      '--open-admin',
      '--api-key',
      'team-a-secret-key',
      '--log',
      'silent',
    ])
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      const res = await fetch(`${server.url}/v1/pets`, { headers: bearer('team-a-secret-key') })
      expect(res.status).toBe(200)
      expect(server.stderr()).toContain('(on all interfaces, --host 0.0.0.0:')
      expect(server.stderr()).toContain('auth:  1 configured API key(s): Bearer te…')
      expect(server.stderr()).not.toContain('team-a')
    } finally {
      expect(await server.stop()).toBe(0)
    }
  })

  it('with --faults and --delay: the rules the file installed and the latency', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-banner-'))
    const file = join(dir, 'faults.json')
    writeFileSync(file, JSON.stringify([{ operation: 'createPet', status: 503, times: 2 }]))
    const server = await spawnServer(['--faults', file, '--delay', '5-20', '--log', 'silent'])
    try {
      expect(server.stderr()).toContain(
        `  faults: 1 rule from ${file}, in every session\n    rule 1: createPet: 503, 2 times\n`,
      )
      expect(server.stderr()).toContain('  delay: every /v1 answer 5-20 ms later, a seeded draw (--delay)\n')
    } finally {
      expect(await server.stop()).toBe(0)
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
