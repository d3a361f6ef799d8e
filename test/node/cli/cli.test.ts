import { describe, expect, it } from 'vitest'
import { parseCommandLine, usage } from '../../../src/node/cli/cli.js'
import { UsageError } from '../../../src/node/config/usage-errors.js'
import { configDefaults } from '../../../src/node/config/config.js'
import { optionSpecs } from '../../../src/node/cli/options.js'

const tty = { isTTY: true } as { isTTY: boolean }
const pipe = { isTTY: false } as { isTTY: boolean }
const serve = (argv: string[], env: NodeJS.ProcessEnv = {}, out = pipe) => {
  const command = parseCommandLine(argv, env, out)
  if (command.run !== 'serve') throw new Error(command.run)
  return command.config
}

describe('parseCommandLine', () => {
  it('has the documented defaults', () => {
    expect(serve([])).toEqual({ ...configDefaults, log: 'json' })
    expect(serve([], {}, tty).log).toBe('pretty')
  })

  it('reads flags and variables; flags win', () => {
    expect(serve(['--port', '5000'], { PETSTORE_MOCK_PORT: '6000', PETSTORE_MOCK_HOST: '0.0.0.0' })).toMatchObject({
      port: 5000,
      host: '0.0.0.0',
    })
    expect(serve(['--api-key', 'a', '--api-key', 'b'])).toMatchObject({ apiKeys: ['a', 'b'] })
    expect(serve([], { PETSTORE_MOCK_API_KEYS: 'a, b,,c' })).toMatchObject({ apiKeys: ['a', 'b', 'c'] })
    expect(serve(['--faker', '--count', '7', '--seed', '9'])).toMatchObject({ faker: true, count: 7, seed: 9 })
    expect(
      serve([], { PETSTORE_MOCK_FAKER: 'true', PETSTORE_MOCK_LOG: 'silent', PETSTORE_MOCK_BODY_LIMIT: '10' }),
    ).toMatchObject({
      faker: true,
      log: 'silent',
      bodyLimit: 10,
    })
  })

  it('reads delays, CORS switches and origin lists', () => {
    expect(serve(['--delay', '250']).delay).toEqual({ min: 250, max: 250 })
    expect(serve([], { PETSTORE_MOCK_DELAY: '10-60000' }).delay).toEqual({ min: 10, max: 60000 })
    expect(serve(['--cors', 'off']).cors).toBe(false)
    expect(serve(['--cors-origin', 'http://a', '--cors-origin', 'http://b']).corsOrigins).toEqual([
      'http://a',
      'http://b',
    ])
    expect(
      serve([], {
        PETSTORE_MOCK_CORS_ORIGIN: 'http://a,http://b',
        PETSTORE_MOCK_JOURNAL_SIZE: '5',
        PETSTORE_MOCK_ADMIN_TOKEN: 't',
        PETSTORE_MOCK_FAULTS: 'f.yaml',
      }),
    ).toMatchObject({
      corsOrigins: ['http://a', 'http://b'],
      journalSize: 5,
      adminTokens: ['t'],
      faults: 'f.yaml',
    })
  })

  it('reads scoped admin tokens, repeated or comma-separated, and refuses a bad one without quoting it', () => {
    expect(
      serve(['--admin-token', 'root', '--admin-token', 'ta=team-a-*', '--admin-token', 'qa=*:read']).adminTokens,
    ).toEqual(['root', 'ta=team-a-*', 'qa=*:read'])
    expect(serve([], { PETSTORE_MOCK_ADMIN_TOKEN: 'root,ta=team-a-*' }).adminTokens).toEqual(['root', 'ta=team-a-*'])
    expect(() => serve(['--admin-token', 'sec ret'])).toThrow(/--admin-token: an admin token must be SECRET/)
    expect(() => serve(['--admin-token', 'sec ret'])).not.toThrow(/sec ret/)
    expect(serve(['--session-ttl', '0', '--session-by-key', '--open-admin', '--reconfigure'])).toMatchObject({
      sessionTtl: 0,
      sessionByKey: true,
      openAdmin: true,
      reconfigure: true,
    })
    expect(serve([])).toMatchObject({ sessionTtl: 14400, sessionByKey: false, openAdmin: false, adminTokens: [] })
  })

  it('reads admin origins and allowed hosts, normalised', () => {
    expect(
      serve([
        '--admin-cors-origin',
        'http://QA.example/',
        '--admin-cors-origin',
        'http://localhost:5173,https://b.test',
      ]),
    ).toMatchObject({ adminCorsOrigins: ['http://qa.example', 'http://localhost:5173', 'https://b.test'] })
    expect(serve([], { PETSTORE_MOCK_ADMIN_CORS_ORIGIN: 'http://a.test, http://b.test' }).adminCorsOrigins).toEqual([
      'http://a.test',
      'http://b.test',
    ])
    expect(serve(['--allowed-hosts', 'PetStore', '--allowed-hosts', '.mock.test,::1']).allowedHosts).toEqual([
      'petstore',
      '.mock.test',
      '[::1]',
    ])
    expect(serve([], { PETSTORE_MOCK_ALLOWED_HOSTS: 'petstore,api' }).allowedHosts).toEqual(['petstore', 'api'])
  })

  it('reads the clock, the sunset mode and the rate limit', () => {
    expect(serve(['--clock', '2030-12-05T01:00:00+01:00']).clock).toEqual(new Date('2030-12-05T00:00:00Z'))
    expect(serve([], { PETSTORE_MOCK_CLOCK: '2030-12-04T23:59:00Z' }).clock).toEqual(new Date('2030-12-04T23:59:00Z'))
    expect(serve([]).sunset).toBe('enforce')
    expect(serve(['--sunset', 'ignore']).sunset).toBe('ignore')
    expect(serve([], { PETSTORE_MOCK_SUNSET: 'ignore' }).sunset).toBe('ignore')
    expect(serve(['--sunset', 'enforce'], { PETSTORE_MOCK_SUNSET: 'ignore' }).sunset).toBe('enforce')
    expect(serve(['--rate-limit', '100/m']).rateLimit).toEqual({ limit: 100, windowSeconds: 60 })
    expect(serve([], { PETSTORE_MOCK_RATE_LIMIT: '10/30s' }).rateLimit).toEqual({ limit: 10, windowSeconds: 30 })
    expect(serve([], { PETSTORE_MOCK_RATE_LIMIT: '5000/h' }).rateLimit).toEqual({ limit: 5000, windowSeconds: 3600 })
    expect(serve([])).not.toHaveProperty('rateLimit')
  })

  it.each([
    [['--clock', '2030-13-01T00:00:00Z'], '--clock must be an ISO 8601 instant with a time zone'],
    [['--clock', '2030-12-05'], '--clock must be an ISO 8601 instant'],
    [
      ['--clock', '9999-12-31T23:59:59.999-23:59'],
      '--clock must be between 0000-01-01T00:00:00.000Z and 8999-12-31T23:59:59.999Z (got "9999-12-31T23:59:59.999-23:59")',
    ],
    [['--clock', 'yesterday'], '--clock must be an ISO 8601 instant'],
    [['--clock', '1924387200000'], '--clock must be an ISO 8601 instant'],
    [['--sunset', 'off'], '--sunset must be enforce or ignore (got "off")'],
    [['--rate-limit', '100'], '--rate-limit must be <n>/<window>'],
    [['--rate-limit', '0/m'], '--rate-limit must be <n>/<window>'],
    [['--rate-limit', '100/d'], '--rate-limit must be <n>/<window>'],
  ])('%j is a usage error: %s', (argv, message) => {
    expect(() => parseCommandLine(argv, {}, pipe)).toThrow(message)
  })

  it.each([
    [{ PETSTORE_MOCK_CLOCK: 'soon' }, 'PETSTORE_MOCK_CLOCK must be an ISO 8601 instant'],
    [{ PETSTORE_MOCK_SUNSET: 'yes' }, 'PETSTORE_MOCK_SUNSET must be enforce or ignore'],
    [{ PETSTORE_MOCK_RATE_LIMIT: '1/week' }, 'PETSTORE_MOCK_RATE_LIMIT must be <n>/<window>'],
  ])('bad variable %j is a usage error naming it', (env, message) => {
    expect(() => parseCommandLine([], env, pipe)).toThrow(message)
  })

  it('every option has a flag and a variable', () => {
    for (const spec of optionSpecs) {
      expect(usage()).toContain(`--${spec.flag}`)
      expect(usage()).toContain(`Env ${spec.env}.`)
    }
  })

  it.each([
    [['--nope']],
    [['--port', 'abc']],
    [['--port', '70000']],
    [['--port', '1.5']],
    [['--log', 'loud']],
    [['--count', '-1']],
    [['extra']],
    [['--body-limit', '0']],
    [['--delay', '60001']],
    [['--delay', '5-']],
    [['--delay', '-5']],
    [['--cors', 'yes']],
    [['--journal-size', '-1']],
    [['--admin-cors-origin', 'localhost:5173']],
    [['--admin-cors-origin', 'http://qa.example/app']],
    [['--allowed-hosts', 'petstore:4010']],
    [['--allowed-hosts', 'http://petstore']],
    [['--allowed-hosts', 'petstore.*']],
    [['--allowed-hosts', 'mock.*.*']],
    [['--allowed-hosts', 'ok.local,mock.*.com']],
  ])('%j is a usage error', (argv) => {
    expect(() => parseCommandLine(argv, {}, pipe)).toThrow(UsageError)
  })

  it.each([
    [{ PETSTORE_MOCK_PORT: 'x' }],
    [{ PETSTORE_MOCK_FAKER: 'maybe' }],
    [{ PETSTORE_MOCK_LOG: 'x' }],
    [{ PETSTORE_MOCK_ALLOWED_HOSTS: 'a,b:1' }],
    [{ PETSTORE_MOCK_ADMIN_CORS_ORIGIN: '*' }],
  ])('bad variable %j is a usage error', (env) => {
    expect(() => parseCommandLine([], env, pipe)).toThrow(UsageError)
  })

  it('knows --help and --version', () => {
    expect(parseCommandLine(['--help'], {}, pipe)).toEqual({ run: 'help' })
    expect(parseCommandLine(['-v'], {}, pipe)).toEqual({ run: 'version' })
  })
})
