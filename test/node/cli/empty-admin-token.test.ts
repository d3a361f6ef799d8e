import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { parseCommandLine } from '../../../src/node/cli/cli.js'
import { failureOf } from '../../../src/node/cli/exit-codes.js'
import { EmptySecret } from '../../../src/node/config/usage-errors.js'
import { createApp } from '../../../src/core/app.js'
import { binPath } from '../../helpers/spawn-server.js'

// Issue 40 §3: PETSTORE_MOCK_ADMIN_TOKEN="" beside the image's PETSTORE_MOCK_OPEN_ADMIN=true on 0.0.0.0
// started with "admin: OPEN", and POST /__admin/reset without a token answered 204.
const imageEnv = { PETSTORE_MOCK_HOST: '0.0.0.0', PETSTORE_MOCK_PORT: '0', PETSTORE_MOCK_OPEN_ADMIN: 'true' }

const parse = (argv: string[], env: NodeJS.ProcessEnv) => () => parseCommandLine(argv, env, { isTTY: false })

describe('an empty or blank admin token is a usage error', () => {
  it.each([
    ['PETSTORE_MOCK_ADMIN_TOKEN=""', [], { ...imageEnv, PETSTORE_MOCK_ADMIN_TOKEN: '' }],
    ['PETSTORE_MOCK_ADMIN_TOKEN="  "', [], { ...imageEnv, PETSTORE_MOCK_ADMIN_TOKEN: '  ' }],
    ['PETSTORE_MOCK_ADMIN_TOKEN="root,"', [], { ...imageEnv, PETSTORE_MOCK_ADMIN_TOKEN: 'root,' }],
    ['PETSTORE_MOCK_ADMIN_TOKEN="a, ,b"', [], { PETSTORE_MOCK_ADMIN_TOKEN: 'a, ,b' }],
    ['the former ADMIN_TOKEN=""', [], { ...imageEnv, ADMIN_TOKEN: '' }],
    ['--admin-token ""', ['--admin-token', ''], imageEnv],
    ['--admin-token " "', ['--admin-token', ' '], {}],
  ])('%s', (_, argv, env) => {
    expect(parse(argv as string[], env)).toThrow(EmptySecret)
    let error: unknown
    try {
      parse(argv as string[], env)()
    } catch (caught) {
      error = caught
    }
    const failure = failureOf(error)
    expect(failure.code).toBe(2)
    expect(failure.stderr).toMatch(
      /^petstore-mock: (PETSTORE_MOCK_ADMIN_TOKEN|ADMIN_TOKEN|--admin-token) is empty or blank: [^\n]+\n$/,
    )
  })

  it('a set token still parses', () => {
    const command = parseCommandLine([], { ...imageEnv, PETSTORE_MOCK_ADMIN_TOKEN: 'root' }, { isTTY: false })
    expect(command.run === 'serve' && command.config.adminTokens).toEqual(['root'])
  })

  it('the app refuses an empty or blank adminToken', () => {
    expect(() => createApp({ adminToken: '' })).toThrow(/adminToken must be a non-empty string, not blank/)
    expect(() => createApp({ adminToken: ' \t' })).toThrow(/adminToken must be a non-empty string, not blank/)
    expect(() => createApp({ adminTokens: [''] })).toThrow(TypeError)
  })

  it('the built server with the image environment and PETSTORE_MOCK_ADMIN_TOKEN="" exits 2 with one line, never open', async () => {
    const child = spawn(process.execPath, [binPath], {
      env: { PATH: process.env['PATH'], ...imageEnv, PETSTORE_MOCK_ADMIN_TOKEN: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.on('data', (chunk) => (out += chunk))
    child.stderr.on('data', (chunk) => (out += chunk))
    const code = await new Promise<number | null>((resolve) => {
      // A server that started would listen on: bounded, then killed (the test then fails on the code).
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
      child.once('exit', (exit) => {
        clearTimeout(timer)
        resolve(exit)
      })
    })
    expect(out).not.toMatch(/OPEN|listening/)
    expect(code).toBe(2)
    expect(out.trimEnd().split('\n')).toHaveLength(1)
    expect(out).toMatch(/^petstore-mock: PETSTORE_MOCK_ADMIN_TOKEN is empty or blank/)
  })
})
