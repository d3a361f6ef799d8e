import { describe, expect, it } from 'vitest'
import { parseCommandLine, usage, UsageError } from '../src/node/cli.js'
import { configDefaults } from '../src/node/config.js'
import { optionSpecs } from '../src/node/options.js'

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
    expect(serve(['--port', '5000'], { PORT: '6000', HOST: '0.0.0.0' })).toMatchObject({ port: 5000, host: '0.0.0.0' })
    expect(serve(['--api-key', 'a', '--api-key', 'b'])).toMatchObject({ apiKeys: ['a', 'b'] })
    expect(serve([], { API_KEYS: 'a, b,,c' })).toMatchObject({ apiKeys: ['a', 'b', 'c'] })
    expect(serve(['--faker', '--count', '7', '--seed', '9'])).toMatchObject({ faker: true, count: 7, seed: 9 })
    expect(serve([], { FAKER: 'true', LOG: 'silent', BODY_LIMIT: '10' })).toMatchObject({
      faker: true,
      log: 'silent',
      bodyLimit: 10,
    })
  })

  it('reads delays, CORS switches and origin lists', () => {
    expect(serve(['--delay', '250']).delay).toEqual({ min: 250, max: 250 })
    expect(serve([], { DELAY: '10-60000' }).delay).toEqual({ min: 10, max: 60000 })
    expect(serve(['--cors', 'off']).cors).toBe(false)
    expect(serve(['--cors-origin', 'http://a', '--cors-origin', 'http://b']).corsOrigins).toEqual([
      'http://a',
      'http://b',
    ])
    expect(
      serve([], { CORS_ORIGIN: 'http://a,http://b', JOURNAL_SIZE: '5', ADMIN_TOKEN: 't', FAULTS: 'f.yaml' }),
    ).toMatchObject({
      corsOrigins: ['http://a', 'http://b'],
      journalSize: 5,
      adminToken: 't',
      faults: 'f.yaml',
    })
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
    expect(serve([], { ADMIN_CORS_ORIGIN: 'http://a.test, http://b.test' }).adminCorsOrigins).toEqual([
      'http://a.test',
      'http://b.test',
    ])
    expect(serve(['--allowed-hosts', 'PetStore', '--allowed-hosts', '.mock.test,::1']).allowedHosts).toEqual([
      'petstore',
      '.mock.test',
      '[::1]',
    ])
    expect(serve([], { ALLOWED_HOSTS: 'petstore,api' }).allowedHosts).toEqual(['petstore', 'api'])
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
  ])('%j is a usage error', (argv) => {
    expect(() => parseCommandLine(argv, {}, pipe)).toThrow(UsageError)
  })

  it.each([
    [{ PORT: 'x' }],
    [{ FAKER: 'maybe' }],
    [{ LOG: 'x' }],
    [{ ALLOWED_HOSTS: 'a,b:1' }],
    [{ ADMIN_CORS_ORIGIN: '*' }],
  ])('bad variable %j is a usage error', (env) => {
    expect(() => parseCommandLine([], env, pipe)).toThrow(UsageError)
  })

  it('knows --help and --version', () => {
    expect(parseCommandLine(['--help'], {}, pipe)).toEqual({ run: 'help' })
    expect(parseCommandLine(['-v'], {}, pipe)).toEqual({ run: 'version' })
  })
})
