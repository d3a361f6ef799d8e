import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { binPath, spawnServer } from '../../helpers/spawn-server.js'
import { bearer } from '../../helpers/auth.js'

const run = (args: string[], env: NodeJS.ProcessEnv) =>
  spawnSync(process.execPath, [binPath, ...args], {
    encoding: 'utf8',
    timeout: 10_000,
    env: { PATH: process.env['PATH'], ...env },
  })

describe('the built command in a shell with other tools’ variables', () => {
  it('starts with LOG=debug and SEED=abc set for someone else: one note each, on stderr, before the banner', async () => {
    const server = await spawnServer(['--log', 'silent'], { LOG: 'debug', SEED: 'abc', API_KEYS: 'k1' })
    try {
      const res = await fetch(`${server.url}/v1/pets`, { headers: bearer('k1') })
      expect(res.status).toBe(200)
      // API_KEYS was read (its old name still works): another key is refused.
      expect((await fetch(`${server.url}/v1/pets`, { headers: bearer('k2') })).status).toBe(401)
      const lines = server.stderr().split('\n')
      const notes = lines.slice(
        0,
        lines.findIndex((line) => line.includes('listening on')),
      )
      expect(notes).toEqual([
        'petstore-mock: API_KEYS is deprecated: set PETSTORE_MOCK_API_KEYS instead (read API_KEYS this time)',
        "petstore-mock: SEED is ignored: SEED must be an integer, so it is taken for another tool's; petstore-mock reads PETSTORE_MOCK_SEED",
      ])
    } finally {
      expect(await server.stop()).toBe(0)
    }
  })

  it('exits 2 on a bad value of a prefixed variable, naming it', () => {
    const result = run(['--port', '0'], { PETSTORE_MOCK_LOG: 'debug' })
    expect(result.status).toBe(2)
    expect(result.stderr).toMatch(
      /^petstore-mock: PETSTORE_MOCK_LOG must be one of pretty, json, silent \(got "debug"\)/,
    )
  })

  it('verify reads PETSTORE_MOCK_API_KEY, or API_KEY with a note', () => {
    const missing = run(['verify', 'http://127.0.0.1:1'], {})
    expect(missing.stderr).toContain('verify needs an API key: --token T or PETSTORE_MOCK_API_KEY')
    // With a key (either name), it gets as far as the unreachable URL: exit 2 for that.
    const prefixed = run(['verify', 'http://127.0.0.1:1', '--timeout', '2000'], { PETSTORE_MOCK_API_KEY: 'k' })
    expect(prefixed.stderr).toMatch(/^petstore-mock verify: cannot reach http:\/\/127\.0\.0\.1:1/)
    const former = run(['verify', 'http://127.0.0.1:1', '--timeout', '2000'], { API_KEY: 'k', VERIFY_TIMEOUT: 'soon' })
    expect(former.stderr.split('\n').slice(0, 3)).toEqual([
      'petstore-mock: API_KEY is deprecated: set PETSTORE_MOCK_API_KEY instead (read API_KEY this time)',
      expect.stringMatching(/^petstore-mock verify: cannot reach/),
      '',
    ])
  })
})
