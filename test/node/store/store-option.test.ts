import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseCommandLine } from '../../../src/node/cli/cli.js'
import { OptionConflict, UsageError } from '../../../src/node/config/usage-errors.js'
import { checkStore, redactStore } from '../../../src/node/store/store-option.js'
import { binPath } from '../../helpers/spawn-server.js'

const serve = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  const command = parseCommandLine(argv, env, { isTTY: false })
  if (command.run !== 'serve') throw new Error(command.run)
  return command.config
}

describe('--store and --store-prefix', () => {
  it('default to memory and petstore-mock; flags win over PETSTORE_MOCK_STORE and PETSTORE_MOCK_STORE_PREFIX', () => {
    expect(serve([])).toMatchObject({ store: 'memory', storePrefix: 'petstore-mock' })
    expect(serve([], { PETSTORE_MOCK_STORE: 'redis://r:6379', PETSTORE_MOCK_STORE_PREFIX: 'qa' })).toMatchObject({
      store: 'redis://r:6379',
      storePrefix: 'qa',
    })
    expect(
      serve(['--store', 'redis://s', '--store-prefix', 'ci'], {
        PETSTORE_MOCK_STORE: 'redis://r',
        PETSTORE_MOCK_STORE_PREFIX: 'qa',
      }),
    ).toMatchObject({ store: 'redis://s', storePrefix: 'ci' })
  })

  it.each([
    'memory',
    'redis://localhost',
    'redis://127.0.0.1:6379',
    'redis://user:secret@redis.internal:6380/2',
    'rediss://cache.example.com:6380',
    'redis://[::1]:6379/0',
  ])('%s is a store', (text) => {
    expect(checkStore(text)).toBe(text)
    expect(serve(['--store', text]).store).toBe(text)
  })

  it.each([
    ['Memory'],
    [''],
    ['redis'],
    ['http://localhost:6379'],
    ['redis://'],
    ['redis://host/db'],
    ['redis://host/100'],
    ['localhost:6379'],
  ])('%j is a usage error naming --store and what it takes', (text) => {
    expect(checkStore(text)).toBeUndefined()
    expect(() => parseCommandLine(['--store', text], {}, { isTTY: false })).toThrow(UsageError)
    expect(() => parseCommandLine(['--store', text], {}, { isTTY: false })).toThrow(
      /^--store must be memory, or redis:\/\//,
    )
  })

  it('names PETSTORE_MOCK_STORE when the variable is bad', () => {
    expect(() => parseCommandLine([], { PETSTORE_MOCK_STORE: 'mysql://x' }, { isTTY: false })).toThrow(
      /^PETSTORE_MOCK_STORE must be memory/,
    )
  })

  it('hides the password when it prints a store', () => {
    expect(redactStore('redis://user:secret@host:6379/1')).toBe('redis://user:***@host:6379/1')
    expect(redactStore('redis://host:6379')).toBe('redis://host:6379')
    expect(redactStore('memory')).toBe('memory')
    // ioredis also reads options from the query: a password there is hidden too.
    expect(redactStore('redis://host:6379?password=secret&db=1')).toBe('redis://host:6379?password=***&db=1')
  })
})

describe('--redis-password-file and --redis-ca-file (issue 41 §4)', () => {
  it('are read from flags or PETSTORE_MOCK_REDIS_PASSWORD_FILE and PETSTORE_MOCK_REDIS_CA_FILE', () => {
    expect(
      serve(['--store', 'rediss://r', '--redis-password-file', '/run/pw', '--redis-ca-file', '/run/ca.pem']),
    ).toMatchObject({ redisPasswordFile: '/run/pw', redisCaFile: '/run/ca.pem' })
    expect(
      serve([], {
        PETSTORE_MOCK_STORE: 'rediss://r',
        PETSTORE_MOCK_REDIS_PASSWORD_FILE: '/run/pw',
        PETSTORE_MOCK_REDIS_CA_FILE: '/run/ca.pem',
      }),
    ).toMatchObject({ redisPasswordFile: '/run/pw', redisCaFile: '/run/ca.pem' })
  })

  it.each([
    [
      ['--redis-password-file', '/run/pw'],
      '--redis-password-file is for a Redis store, and the store is memory: add --store redis://…, or drop it',
    ],
    [
      ['--redis-password-file', '/run/pw', '--redis-ca-file', '/run/ca'],
      '--redis-password-file and --redis-ca-file are for a Redis store, and the store is memory: add --store redis://…, or drop them',
    ],
    [
      ['--store', 'redis://u:p@r', '--redis-password-file', '/run/pw'],
      '--redis-password-file and the password in --store both give the Redis password: choose one',
    ],
    [
      ['--store', 'redis://r', '--redis-ca-file', '/run/ca'],
      '--redis-ca-file is the CA of a TLS store, and --store is not TLS: write rediss://…, or drop it',
    ],
  ])('%j is refused: %s', (argv, message) => {
    expect(() => parseCommandLine(argv, {}, { isTTY: false })).toThrow(OptionConflict)
    expect(() => parseCommandLine(argv, {}, { isTTY: false })).toThrow(message)
  })
})

describe('the Redis client is optional and loaded only for a Redis store', () => {
  it('a start with --store redis://… where ioredis is not installed exits 2 with one line', () => {
    // The built package without node_modules beside it: ioredis cannot be found.
    const dir = mkdtempSync(join(tmpdir(), 'petstore-no-ioredis-'))
    try {
      cpSync(join(binPath, '..'), join(dir, 'dist'), { recursive: true })
      const run = spawnSync(
        process.execPath,
        [join(dir, 'dist', 'bin.js'), '--port', '0', '--store', 'redis://user:pw@127.0.0.1:1'],
        { encoding: 'utf8', timeout: 10_000, env: { PATH: process.env['PATH'] } },
      )
      expect(run.status).toBe(2)
      expect(run.stdout).toBe('')
      expect(run.stderr).toBe(
        'petstore-mock: --store redis://user:***@127.0.0.1:1 needs the Redis client: npm install ioredis\n',
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a start whose Redis cannot be reached exits 1 naming the store and the cause', () => {
    const run = spawnSync(process.execPath, [binPath, '--port', '0', '--store', 'redis://127.0.0.1:1'], {
      encoding: 'utf8',
      timeout: 10_000,
      env: { PATH: process.env['PATH'] },
    })
    expect(run.status).toBe(1)
    expect(run.stderr).toBe(
      'petstore-mock: cannot start: the store redis://127.0.0.1:1 cannot be reached: connect ECONNREFUSED 127.0.0.1:1\n',
    )
  })

  it('no chunk a memory start loads statically imports ioredis (it is imported only by the Redis store)', () => {
    const chunks = join(binPath, '..', 'chunks')
    const importers = readdirSync(chunks)
      .map((name) => ({ name, code: readFileSync(join(chunks, name), 'utf8') }))
      .filter(({ code }) => /from\s*"ioredis"/.test(code))
    // One chunk: the Redis store's, loaded by a dynamic import in open-store.ts.
    expect(importers).toHaveLength(1)
    const main = readFileSync(binPath, 'utf8')
    expect(main).not.toMatch(/ioredis/)
    for (const { name } of importers) {
      const loaders = readdirSync(chunks)
        .map((other) => readFileSync(join(chunks, other), 'utf8'))
        .filter((code) => code.includes(name))
      for (const code of loaders) expect(code).toMatch(new RegExp(`import\\("\\./${name.replace('.', '\\.')}"\\)`))
    }
  })
})
