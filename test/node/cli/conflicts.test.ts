import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { parseCommandLine } from '../../../src/node/cli/cli.js'
import { OptionConflict } from '../../../src/node/config/usage-errors.js'
import { binPath } from '../../helpers/spawn-server.js'

const parse = (argv: string[], env: NodeJS.ProcessEnv = {}) => parseCommandLine(argv, env, { isTTY: false })

describe('options that contradict each other', () => {
  it.each([
    // [flags, variables, the one line]
    [['--faker', '--fixtures', 'pets.yaml'], {}, '--faker and --fixtures both seed the pets: choose one'],
    [['--fixtures', 'pets.yaml'], { PETSTORE_MOCK_FAKER: 'true' }, 'PETSTORE_MOCK_FAKER and --fixtures both seed'],
    [['--faker'], { FIXTURES: 'pets.yaml' }, '--faker and FIXTURES both seed the pets: choose one'],
    [
      ['--count', '5'],
      {},
      '--count is how many pets --faker generates, and --faker is not set: add --faker, or drop --count',
    ],
    [['--count', '50'], { PETSTORE_MOCK_FAKER: 'false' }, '--count is how many pets --faker generates'],
    [[], { PETSTORE_MOCK_COUNT: '5' }, 'PETSTORE_MOCK_COUNT is how many pets --faker generates'],
    [
      ['--data', 'edge'],
      {},
      '--data is which pets --faker generates, and --faker is not set: add --faker, or drop --data',
    ],
    [[], { PETSTORE_MOCK_DATA: 'edge' }, 'PETSTORE_MOCK_DATA is which pets --faker generates'],
    [['--snapshot', 'w.yaml', '--faker', '--data', 'edge'], {}, 'drop --faker, --data'],
    [
      ['--cors', 'off', '--cors-origin', 'http://a.test'],
      {},
      '--cors-origin lists origins for CORS, which --cors turns off: drop one',
    ],
    [
      ['--proxy-timeout', '500'],
      {},
      '--proxy-timeout sets how --proxy forwards, and --proxy is not set: add --proxy URL, or drop it',
    ],
    [
      ['--proxy-timeout', '500', '--proxy-flag-violations'],
      {},
      '--proxy-timeout and --proxy-flag-violations set how --proxy forwards, and --proxy is not set: add --proxy URL, or drop them',
    ],
    [
      ['--store-prefix', 'qa'],
      {},
      '--store-prefix prefixes the keys of a Redis store, and the store is memory: add --store redis://…, or drop it',
    ],
    [
      ['--headers-timeout', '40000'],
      {},
      '--headers-timeout (40000 ms) exceeds --request-timeout (30000 ms): the headers are part of the request',
    ],
    [
      ['--request-timeout', '5000'],
      {},
      '--headers-timeout (10000 ms) exceeds --request-timeout (5000 ms): the headers are part of the request',
    ],
    [
      ['--snapshot', 'w.yaml', '--proxy', 'http://127.0.0.1:9'],
      {},
      '--proxy records a deployment and --snapshot replays a recording: choose one',
    ],
    [
      ['--snapshot', 'w.yaml', '--faker', '--count', '3', '--delay', '5'],
      {},
      '--snapshot sets the pets, fault rules, latency, clock and rate limit: drop --faker, --count, --delay',
    ],
    [
      ['--snapshot', 'w.yaml'],
      { PETSTORE_MOCK_FIXTURES: 'p.yaml', PETSTORE_MOCK_CLOCK: '2030-01-01T00:00:00Z', RATE_LIMIT: '5/m' },
      '--snapshot sets the pets, fault rules, latency, clock and rate limit: drop PETSTORE_MOCK_FIXTURES, PETSTORE_MOCK_CLOCK, RATE_LIMIT',
    ],
  ])('%j with %j: %s', (argv, env, message) => {
    expect(() => parse(argv, env)).toThrow(OptionConflict)
    expect(() => parse(argv, env)).toThrow(message)
  })

  it.each([
    [['--faker', '--count', '5']],
    [['--faker', '--count', '5', '--seed', '3']],
    [['--faker', '--data', 'edge']],
    [['--fixtures', 'pets.yaml']],
    [['--proxy', 'http://127.0.0.1:9', '--fixtures', 'pets.yaml']],
    [['--proxy', 'http://127.0.0.1:9', '--faker', '--proxy-timeout', '500', '--proxy-flag-violations']],
    [['--cors', 'off']],
    [['--cors', 'on', '--cors-origin', 'http://a.test']],
    [['--store', 'redis://r:6379', '--store-prefix', 'qa']],
    [['--headers-timeout', '30000']],
    [['--headers-timeout', '40000', '--request-timeout', '60000']],
    [['--snapshot', 'w.yaml', '--max-pets', '10', '--api-key', 'k']],
  ])('%j is fine', (argv) => {
    expect(() => parse(argv)).not.toThrow()
  })

  it('PETSTORE_MOCK_DATA with --faker is fine', () => {
    expect(() => parse(['--faker'], { PETSTORE_MOCK_DATA: 'edge' })).not.toThrow()
  })

  it('a flag given settles it: a variable it overrides does not count', () => {
    expect(() => parse(['--faker'], { PETSTORE_MOCK_FIXTURES: 'pets.yaml' })).toThrow(OptionConflict)
    expect(() => parse(['--store', 'redis://r'], { PETSTORE_MOCK_STORE: 'memory', STORE_PREFIX: 'qa' })).not.toThrow()
  })
})

describe('the built command', () => {
  it.each([
    [['--faker', '--fixtures', 'pets.yaml'], '--faker and --fixtures both seed the pets: choose one'],
    [
      ['--count', '5'],
      '--count is how many pets --faker generates, and --faker is not set: add --faker, or drop --count',
    ],
  ])('%j: exit 2, one line on stderr, nothing on stdout', (argv, message) => {
    const result = spawnSync(process.execPath, [binPath, '--port', '0', ...argv], {
      encoding: 'utf8',
      timeout: 10_000,
      env: { PATH: process.env['PATH'] },
    })
    expect([result.status, result.stdout, result.stderr]).toEqual([2, '', `petstore-mock: ${message}\n`])
  })
})
