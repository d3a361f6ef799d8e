import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { assertContract } from './helpers/contract.js'
import { binPath, spawnServer } from './helpers/spawn-server.js'

const run = (args: string[]) => spawnSync(process.execPath, [binPath, ...args], { encoding: 'utf8', timeout: 10_000 })

describe('the CLI over a real socket', () => {
  it('creates and reads a pet, then stops on SIGTERM with exit code 0', async () => {
    const server = await spawnServer(['--api-key', 'secret', '--log', 'json'])
    try {
      const headers = { Authorization: 'Bearer secret', 'Content-Type': 'application/json' }
      const created = await fetch(`${server.url}/v1/pets`, {
        method: 'POST',
        headers,
        body: '{"name":"Rex","categoryId":2}',
      })
      await assertContract('POST', '/v1/pets', created)
      expect(created.status).toBe(201)
      const pet = await created.json()
      const read = await fetch(`${server.url}${created.headers.get('location')}`, { headers })
      await assertContract('GET', `/v1/pets/${pet.id}`, read)
      expect(await read.json()).toEqual(pet)
      expect(server.stderr()).toContain('auth:  1 configured API key(s)')
      expect(server.stderr()).toContain(`curl -H 'Authorization: Bearer secret' ${server.url}/v1/pets`)
    } finally {
      expect(await server.stop('SIGTERM')).toBe(0)
    }
    const lines = server
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(lines.filter((l) => l.level === 'info').map((l) => [l.method, l.path, l.status])).toEqual([
      ['POST', '/v1/pets', 201],
      ['GET', '/v1/pets/13', 200],
    ])
    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1)
  })

  it('stops on SIGINT too', async () => {
    const server = await spawnServer(['--log', 'silent'])
    expect(await server.stop('SIGINT')).toBe(0)
  })

  it('serves faker data when asked', async () => {
    const server = await spawnServer(['--faker', '--count', '5', '--seed', '3', '--log', 'silent'])
    try {
      const res = await fetch(`${server.url}/v1/pets`, { headers: { Authorization: 'Bearer x' } })
      expect(await res.json()).toHaveLength(5)
    } finally {
      await server.stop()
    }
  })

  it.each([
    [['--bogus'], 2, "Unknown option '--bogus'"],
    [['--port', 'x'], 2, '--port must be an integer (got "x")'],
    [['--fixtures', '/nonexistent/pets.yaml'], 1, '/nonexistent/pets.yaml: cannot read'],
    [['--faker', '--count', '20', '--max-pets', '10'], 2, '20 seed pets exceed --max-pets 10'],
  ])('%j exits %i with a message', (args, code, message) => {
    const result = run(args)
    expect(result.status).toBe(code)
    expect(result.stderr).toContain(message)
    if (code === 2) expect(result.stderr).toContain('Usage: petstore-mock')
  })

  it('prints --help and --version', () => {
    expect(run(['--help']).stdout).toContain('--max-pets')
    expect(run(['--version']).stdout).toMatch(/^\d+\.\d+\.\d+\n$/)
  })
})
