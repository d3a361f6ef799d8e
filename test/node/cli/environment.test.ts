import { describe, expect, it } from 'vitest'
import { parseCommandLine, usage } from '../../../src/node/cli/cli.js'
import { UsageError } from '../../../src/node/config/usage-errors.js'
import { configDefaults } from '../../../src/node/config/config.js'
import { Environment, envPrefix, legacyName } from '../../../src/node/config/environment.js'
import { type OptionSpec, optionSpecs } from '../../../src/node/cli/options.js'

const pipe = { isTTY: false }
const parseWith = (env: NodeJS.ProcessEnv, argv: string[] = []) => {
  const command = parseCommandLine(argv, env, pipe)
  if (command.run !== 'serve') throw new Error(command.run)
  return command
}

// A value each option takes that is not its default.
const sampleFor = (spec: OptionSpec): string => {
  // Below --headers-timeout's default it would contradict it (conflicts.ts).
  if (spec.flag === 'request-timeout') return '20000'
  const bySilence: Record<string, string> = {
    'limit-range': 'clamp',
    'default-status': 'sold',
    categories: '1,2',
    'unknown-fields': 'reject',
  }
  const byKind: Partial<Record<OptionSpec['kind'], string>> = {
    integer: String(Math.max(spec.min ?? 1, 1) + 1),
    boolean: 'true',
    list: 'a,b',
    origins: 'http://qa.test',
    hosts: 'qa.test',
    log: 'silent',
    delay: '5-9',
    cors: 'off',
    instant: '2030-12-05T00:00:00Z',
    sunset: 'ignore',
    rate: '5/m',
    url: 'http://127.0.0.1:9',
    store: 'redis://r:6379',
    data: 'edge',
    string: 'x.yaml',
    tokens: 'root-secret,ta-secret=team-a-*',
  }
  return spec.kind === 'silence' ? bySilence[spec.flag]! : byKind[spec.kind]!
}

describe('the variables: PETSTORE_MOCK_ and the flag', () => {
  // --api-key is repeated on a command line; its variable holds the list.
  const names: Record<string, string> = { 'api-key': 'API_KEYS' }
  it.each(optionSpecs.map((spec) => [spec.flag, spec.env] as const))('--%s: %s', (flag, env) => {
    expect(env).toBe(envPrefix + (names[flag] ?? flag.toUpperCase().replace(/-/g, '_')))
  })

  it('--help names the prefixed ones and says the former names are read', () => {
    for (const spec of optionSpecs) expect(usage()).toContain(`Env ${spec.env}.`)
    expect(usage(80).replace(/\s+/g, ' ')).toContain(
      `former names, without ${envPrefix}, are still read, with a note on stderr`,
    )
  })
})

// What an option needs beside it to mean anything (conflicts.ts), as prefixed variables.
const companions: Record<string, NodeJS.ProcessEnv> = {
  count: { PETSTORE_MOCK_FAKER: 'true' },
  data: { PETSTORE_MOCK_FAKER: 'true' },
  'proxy-timeout': { PETSTORE_MOCK_PROXY: 'http://127.0.0.1:9' },
  'proxy-flag-violations': { PETSTORE_MOCK_PROXY: 'http://127.0.0.1:9' },
  'store-prefix': { PETSTORE_MOCK_STORE: 'redis://r:6379' },
  'redis-password-file': { PETSTORE_MOCK_STORE: 'redis://r:6379' },
  'redis-ca-file': { PETSTORE_MOCK_STORE: 'rediss://r:6379' },
}

const withFormerName = optionSpecs.filter((spec) => spec.prefixedOnly !== true)

describe.each(withFormerName.map((spec) => [spec.env, legacyName(spec.env), sampleFor(spec), spec] as const))(
  '%s (formerly %s=%s)',
  (name, old, value, spec) => {
    const key = (spec.key ??
      spec.flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())) as keyof typeof configDefaults
    const parse = (env: NodeJS.ProcessEnv, argv: string[] = []) => parseWith({ ...companions[spec.flag], ...env }, argv)
    const prefixed = parse({ [name]: value })

    it('is read, with no note', () => {
      expect(prefixed.config[key]).not.toEqual(configDefaults[key])
      expect(prefixed.notes).toEqual([])
    })

    it('is read by its former name too, with one deprecation note', () => {
      const former = parse({ [old]: value })
      expect(former.config).toEqual(prefixed.config)
      expect(former.notes).toEqual([`petstore-mock: ${old} is deprecated: set ${name} instead (read ${old} this time)`])
    })

    it('wins over its former name, and the note says so', () => {
      const both = parse({ [name]: value, [old]: 'garbage, not read' })
      expect(both.config).toEqual(prefixed.config)
      expect(both.notes).toEqual([`petstore-mock: ${old} is deprecated and ignored: ${name} is set too, and wins`])
    })

    it('loses to the flag, and the former name is then not read', () => {
      const flagged = parse(
        { [old]: 'garbage' },
        spec.kind === 'boolean' ? [`--${spec.flag}`] : [`--${spec.flag}`, value],
      )
      expect(flagged.config).toEqual(prefixed.config)
      expect(flagged.notes).toEqual([])
    })
  },
)

// The variables that came with the prefix (issue 28) never had another name: RECONFIGURE=true or
// SESSION_TTL=2 set for another tool must not reach the mock.
const prefixedOnly = optionSpecs.filter((spec) => spec.prefixedOnly === true)

describe.each(prefixedOnly.map((spec) => [spec.env, legacyName(spec.env), sampleFor(spec), spec] as const))(
  '%s (new: %s=%s is another tool’s)',
  (name, unprefixed, value, spec) => {
    const key = (spec.key ??
      spec.flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())) as keyof typeof configDefaults

    it('is read, with no note', () => {
      const prefixed = parseWith({ ...companions[spec.flag], [name]: value })
      expect(prefixed.config[key]).not.toEqual(configDefaults[key])
      expect(prefixed.notes).toEqual([])
    })

    it('is never read by its unprefixed name, and nothing is noted', () => {
      const other = parseWith({ [unprefixed]: value })
      expect(other.config).toEqual(parseWith({}).config)
      expect(other.notes).toEqual([])
    })
  },
)

it('the variables that came with the prefix are the five of issue 28, the tenants file of issue 39, --redact of issue 40, the Redis secrets and the drain of issue 41', () => {
  expect(prefixedOnly.map((spec) => spec.env)).toEqual([
    'PETSTORE_MOCK_ADMIN_TOKENS_FILE',
    'PETSTORE_MOCK_TENANTS',
    'PETSTORE_MOCK_OPEN_ADMIN',
    'PETSTORE_MOCK_REDACT',
    'PETSTORE_MOCK_SESSION_TTL',
    'PETSTORE_MOCK_SESSION_BY_KEY',
    'PETSTORE_MOCK_RECONFIGURE',
    'PETSTORE_MOCK_DRAIN_SECONDS',
    'PETSTORE_MOCK_GRACE_SECONDS',
    'PETSTORE_MOCK_REDIS_PASSWORD_FILE',
    'PETSTORE_MOCK_REDIS_CA_FILE',
  ])
})

describe('a former name whose value is none of the option’s', () => {
  it.each([
    [{ LOG: 'debug' }, 'LOG is ignored: LOG must be one of pretty, json, silent'],
    [{ PORT: 'http' }, 'PORT is ignored: PORT must be an integer'],
    [{ PORT: '70000' }, 'PORT is ignored: PORT must be between 0 and 65535'],
    [{ HOST: '' }, 'HOST is ignored: HOST must not be empty'],
    [{ STORE: 'mysql://u:secret@db' }, 'STORE is ignored: STORE must be memory, or redis://'],
    [{ DELAY: 'long' }, 'DELAY is ignored: DELAY must be MS or MIN-MAX'],
    [{ PROXY: 'on' }, 'PROXY is ignored: PROXY must be an absolute http(s) URL'],
    [{ CLOCK: 'now' }, 'CLOCK is ignored: CLOCK must be an ISO 8601 instant'],
  ])('%j is ignored (the default stands), with a note naming the variable to use, not the value', (env, note) => {
    const [old, value] = Object.entries(env)[0]!
    const { config, notes } = parseWith(env)
    expect(config).toEqual(parseWith({}).config)
    expect(notes).toHaveLength(1)
    expect(notes[0]).toContain(`petstore-mock: ${note}`)
    expect(notes[0]).toMatch(new RegExp(`, so it is taken for another tool's; petstore-mock reads ${envPrefix}${old}$`))
    if (value !== '') expect(notes[0]).not.toContain(value)
  })

  it.each([
    [{ PETSTORE_MOCK_LOG: 'debug' }, 'PETSTORE_MOCK_LOG must be one of pretty, json, silent (got "debug")'],
    [{ PETSTORE_MOCK_PORT: 'http' }, 'PETSTORE_MOCK_PORT must be an integer (got "http")'],
    [{ PETSTORE_MOCK_LOG: 'debug', LOG: 'json' }, 'PETSTORE_MOCK_LOG must be one of pretty, json, silent'],
  ])('the prefixed name is a usage error: %j', (env, message) => {
    expect(() => parseCommandLine([], env, pipe)).toThrow(UsageError)
    expect(() => parseCommandLine([], env, pipe)).toThrow(message)
  })
})

describe('Environment', () => {
  it('notes each former name once, in the order read, never its value', () => {
    const environment = new Environment({ PORT: '1', ADMIN_TOKEN: 'secret-token', PETSTORE_MOCK_PORT: '2' })
    expect(environment.read('PETSTORE_MOCK_PORT')).toEqual({ value: '2', name: 'PETSTORE_MOCK_PORT', legacy: false })
    expect(environment.read('PETSTORE_MOCK_PORT')).toEqual({ value: '2', name: 'PETSTORE_MOCK_PORT', legacy: false })
    expect(environment.read('PETSTORE_MOCK_ADMIN_TOKEN')).toEqual({
      value: 'secret-token',
      name: 'ADMIN_TOKEN',
      legacy: true,
    })
    expect(environment.read('PETSTORE_MOCK_LOG')).toBeUndefined()
    expect(environment.notes).toEqual([
      'petstore-mock: PORT is deprecated and ignored: PETSTORE_MOCK_PORT is set too, and wins',
      'petstore-mock: ADMIN_TOKEN is deprecated: set PETSTORE_MOCK_ADMIN_TOKEN instead (read ADMIN_TOKEN this time)',
    ])
  })

  it('leaves the variables it does not read alone', () => {
    expect(
      parseWith({ LOGNAME: 'me', HOSTNAME: 'box', PETSTORE_MOCK_BUILT: '1', NODE_ENV: 'production' }).notes,
    ).toEqual([])
  })
})
