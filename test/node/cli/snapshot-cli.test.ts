import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { binPath, spawnServer } from '../../helpers/spawn-server.js'
import { bearer } from '../../helpers/auth.js'

const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [binPath, ...args], {
    encoding: 'utf8',
    timeout: 10_000,
    env: { PATH: process.env['PATH'], ...env },
  })

const file = (name: string, text: string): string => {
  const path = join(mkdtempSync(join(tmpdir(), 'petstore-snapshot-')), name)
  writeFileSync(path, text)
  return path
}

describe('--snapshot FILE / PETSTORE_MOCK_SNAPSHOT', () => {
  it('starts every session from the snapshot, from the variable too', async () => {
    const snapshot = file(
      'world.yaml',
      'format: 1\nseed: 5\npets:\n  - { id: 7, name: Rex, categoryId: 2 }\nnextId: 20\n' +
        'faults:\n  - { id: 4, operation: getPet, status: 503, times: 2, remaining: 1 }\nnextFaultId: 9\n',
    )
    const server = await spawnServer(['--log', 'silent'], { PETSTORE_MOCK_SNAPSHOT: snapshot })
    try {
      expect(server.stderr()).toContain(`pets:  1 from snapshot ${snapshot}`)
      const headers = { ...bearer('x'), 'X-Mock-Session': 'other' }
      expect((await fetch(`${server.url}/v1/pets/7`, { headers })).status).toBe(503)
      expect((await fetch(`${server.url}/v1/pets/7`, { headers })).status).toBe(200)
      const created = await fetch(`${server.url}/v1/pets`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: '{"name":"n","categoryId":1}',
      })
      expect((await created.json()).id).toBe(20)
      const json = await fetch(`${server.url}/__admin/snapshot`, { headers: { Accept: 'application/json' } })
      expect(await json.json()).toMatchObject({
        seed: 5,
        nextId: 20,
        nextFaultId: 9,
        faults: [{ id: 4, remaining: 1 }],
      })
    } finally {
      await server.stop()
    }
  })

  it.each([
    [
      'bad.yaml',
      'format: 1\npets: []\nfaults:\n  - { id: 1, status: 200 }\n',
      'faults.0: status must be an integer between 400 and 599',
    ],
    ['bad.json', '{"format": 1, "pets": [{"id": 1, "name": "a"}]}', 'pets: entry 0: categoryId is required'],
    ['bad.yml', 'format: 1\npets: []\nlatency: { min: 9, max: 1 }\n', 'latency.min must not exceed latency.max'],
    ['bad2.yaml', 'pets: []\n', 'format is required'],
    ['broken.yaml', 'format: [\n', 'not valid YAML'],
  ])('a bad file (%s) stops start-up with exit code 1, naming the file and the field', (name, text, message) => {
    const path = file(name, text)
    const result = run(['--snapshot', path])
    expect(result.status).toBe(1)
    expect(result.stderr).toContain(`petstore-mock: ${path}: ${message}`)
  })

  it('a missing file exits 1 naming it', () => {
    const result = run(['--snapshot', '/nonexistent/world.yaml'])
    expect(result.status).toBe(1)
    expect(result.stderr).toContain('/nonexistent/world.yaml: cannot read')
  })

  it.each([['--fixtures', 'x.yaml'], ['--faker'], ['--faults', 'f.yaml'], ['--delay', '10']])(
    'does not combine with %s: usage error, exit code 2',
    (...args) => {
      const result = run(['--snapshot', file('w.yaml', 'format: 1\npets: []\n'), ...args])
      expect(result.status).toBe(2)
      expect(result.stderr).toContain('--snapshot sets the pets, fault rules, latency, clock and rate limit')
    },
  )

  it('more pets than --max-pets is a usage error', () => {
    const path = file(
      'w.yaml',
      'format: 1\npets: [{ id: 1, name: a, categoryId: 1 }, { id: 2, name: b, categoryId: 1 }]\n',
    )
    const result = run(['--snapshot', path, '--max-pets', '1'])
    expect(result.status).toBe(2)
    expect(result.stderr).toContain('2 seed pets exceed --max-pets 1')
  })

  it('is listed by --help with its variable', () => {
    expect(run(['--help']).stdout).toMatch(/--snapshot <value>\n(      .*\n)*?      Env PETSTORE_MOCK_SNAPSHOT\./)
  })
})
