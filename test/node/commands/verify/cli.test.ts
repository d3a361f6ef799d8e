import { execFile } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { binPath, spawnServer } from '../../../helpers/spawn-server.js'
import { startStandIn } from '../../../helpers/stand-in.js'
import { freePort } from '../../../helpers/free-port.js'

/** `petstore-mock verify …` as a child process (asynchronous: a stand-in in this process must keep answering). */
const verify = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [binPath, 'verify', ...args],
      { env: { PATH: process.env['PATH'], ...env }, timeout: 20_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    )
  })

describe('petstore-mock verify', () => {
  it('passes the mock itself (started on port 0): exit 0, every line ok', async () => {
    const server = await spawnServer(['--log', 'silent'])
    try {
      const { code, stdout, stderr } = await verify([server.url, '--token', 'any-token'])
      expect(stderr).toBe('')
      expect(code).toBe(0)
      expect(stdout).not.toContain('DRIFT')
      expect(stdout).toContain('Conforms: 19 checks, no drift (0 skipped, 24 requests).')
    } finally {
      await server.stop()
    }
  })

  it('reads the switches the mock runs with, and --json is a machine-readable report', async () => {
    const server = await spawnServer(['--log', 'silent', '--limit-range', 'clamp', '--default-status', 'available'])
    try {
      const { code, stdout } = await verify([`${server.url}/v1`, '--json'], { PETSTORE_MOCK_API_KEY: 'k' })
      expect(code).toBe(0)
      const report = JSON.parse(stdout)
      expect(report).toMatchObject({ conforms: true, drifts: 0, skipped: 0, requests: 24 })
      expect(report.mockCommand).toBe(
        'petstore-mock --limit-range clamp --default-status available --unknown-fields ignore --categories any',
      )
    } finally {
      await server.stop()
    }
  })

  it('exit 1 against a drifting deployment, each drift on its own line', async () => {
    const standIn = await startStandIn('wrong-status')
    try {
      const { code, stdout } = await verify([standIn.url, '--token', 't'])
      expect(code).toBe(1)
      expect(stdout).toContain(
        'DRIFT  createPet → 201 Pet, the fields sent: createPet: 200, the contract says 201 (a status it does not document)\n',
      )
      expect(stdout).toContain('Drifts: 1 in 19 checks (0 skipped, 24 requests).')
    } finally {
      await standIn.close()
    }
  })

  it('exit 2 with a clear message when the URL cannot be reached', async () => {
    const port = await freePort()
    const { code, stdout, stderr } = await verify([`http://127.0.0.1:${port}`, '--token', 't', '--timeout', '2000'])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toBe(
      `petstore-mock verify: cannot reach http://127.0.0.1:${port}: GET http://127.0.0.1:${port}/v1/pets: ECONNREFUSED\n`,
    )
  })

  it.each([
    [[], 'verify takes one URL (got 0)'],
    [['http://127.0.0.1:1'], 'verify needs an API key: --token T or PETSTORE_MOCK_API_KEY'],
    [['ftp://x', '--token', 't'], 'URL must be an absolute http(s) URL (got "ftp://x")'],
    [['not a url', '--token', 't'], 'URL must be an absolute http(s) URL (got "not a url")'],
    [
      ['http://127.0.0.1:1', '--token', 't', '--timeout', '0'],
      '--timeout must be milliseconds from 1 to 120000 (got "0")',
    ],
    [['http://127.0.0.1:1', '--token', 't', '--writes'], "Unknown option '--writes'"],
  ])('exit 2 on bad usage: %j', async (args, message) => {
    const { code, stderr } = await verify(args)
    expect(code).toBe(2)
    expect(stderr).toContain(`petstore-mock verify: ${message}`)
    expect(stderr).toContain('Usage: petstore-mock verify URL [options]')
  })

  it('exit 2 when --spec cannot be read', async () => {
    const { code, stderr } = await verify(['http://127.0.0.1:1', '--token', 't', '--spec', '/nonexistent/openapi.yaml'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/^petstore-mock verify: ENOENT/)
  })

  it('--help', async () => {
    const { code, stdout } = await verify(['--help'])
    expect(code).toBe(0)
    expect(stdout).toContain('--no-writes')
  })
})
