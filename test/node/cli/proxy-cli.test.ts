import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { parseCommandLine } from '../../../src/node/cli/cli.js'
import { UsageError } from '../../../src/node/config/usage-errors.js'
import { binPath, spawnServer } from '../../helpers/spawn-server.js'
import { startStandIn } from '../../helpers/stand-in.js'
import { bearer } from '../../helpers/auth.js'

const serve = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  const command = parseCommandLine(argv, env, { isTTY: false })
  if (command.run !== 'serve') throw new Error(command.run)
  return command.config
}

describe('--proxy on the command line', () => {
  it('reads --proxy, --proxy-timeout, --proxy-flag-violations and their variables', () => {
    expect(serve([])).toMatchObject({ proxyTimeout: 10_000, proxyFlagViolations: false })
    expect(serve([]).proxy).toBeUndefined()
    expect(
      serve(['--proxy', 'https://staging.example.com/v1', '--proxy-timeout', '2500', '--proxy-flag-violations']),
    ).toMatchObject({ proxy: 'https://staging.example.com/v1', proxyTimeout: 2500, proxyFlagViolations: true })
    expect(
      serve([], {
        PETSTORE_MOCK_PROXY: 'http://127.0.0.1:9',
        PETSTORE_MOCK_PROXY_TIMEOUT: '5',
        PETSTORE_MOCK_PROXY_FLAG_VIOLATIONS: 'true',
      }),
    ).toMatchObject({
      proxy: 'http://127.0.0.1:9',
      proxyTimeout: 5,
      proxyFlagViolations: true,
    })
  })

  it.each([
    [['--proxy', 'staging'], '--proxy must be an absolute http(s) URL (got "staging")'],
    [['--proxy', 'ftp://x'], '--proxy must be an absolute http(s) URL (got "ftp://x")'],
    [['--proxy-timeout', '0'], '--proxy-timeout must be between 1 and 600000 (got 0)'],
  ])('%j is a usage error', (argv, message) => {
    expect(() => serve(argv)).toThrow(UsageError)
    expect(() => serve(argv)).toThrow(message)
  })

  it('--proxy with --snapshot: exit 2', () => {
    const result = spawnSync(process.execPath, [binPath, '--proxy', 'http://127.0.0.1:9', '--snapshot', 'x.yaml'], {
      encoding: 'utf8',
      timeout: 10_000,
    })
    expect(result.status).toBe(2)
    expect(result.stderr).toContain('--proxy records a deployment and --snapshot replays a recording: choose one')
  })

  it('the CLI proxies a deployment, starts with no pets, and says so in its banner', async () => {
    const upstream = await startStandIn()
    const server = await spawnServer(['--proxy', upstream.url, '--log', 'silent'])
    try {
      expect(server.stderr()).toContain(`  proxy: ${server.url}/v1 forwards to ${upstream.url}`)
      expect(server.stderr()).toContain('pets:  0 from none at start-up')
      const res = await fetch(`${server.url}/v1/pets?limit=2`, { headers: bearer() })
      expect(await res.json()).toEqual([
        { id: 1, name: 'Biscuit', categoryId: 1, status: 'available' },
        { id: 2, name: 'Luna', categoryId: 2, status: 'available' },
      ])
      expect(upstream.requests()).toBe(1)
      const health = await (await fetch(`${server.url}/__admin/health`)).json()
      expect(health).toMatchObject({
        pets: 2,
        proxy: { upstream: `${upstream.url}/v1`, forwarded: 1, withViolations: 0 },
      })
    } finally {
      await server.stop()
      await upstream.close()
    }
  })
})
