import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { assertContract } from '../helpers/contract.js'
import { delayedAtLeast } from '../helpers/asked-delay.js'
import { takenRequest } from '../helpers/in-flight.js'
import { binPath, spawnServer } from '../helpers/spawn-server.js'
import { fakePets } from '../../src/core/pets/seed.js'
import { bearer } from '../helpers/auth.js'

const run = (args: string[]) => spawnSync(process.execPath, [binPath, ...args], { encoding: 'utf8', timeout: 10_000 })

describe('the CLI over a real socket', () => {
  it('creates and reads a pet, then stops on SIGTERM with exit code 0', async () => {
    const server = await spawnServer(['--api-key', 'secret', '--log', 'json'])
    try {
      const headers = { ...bearer('secret'), 'Content-Type': 'application/json' }
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
      expect(server.stderr()).toContain(`curl -H 'Authorization: Bearer <your API key>' ${server.url}/v1/pets`)
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

  it('on SIGTERM, stops accepting, finishes the requests in flight, closing each connection once answered, then exits 0', async () => {
    const server = await spawnServer(['--log', 'silent'])
    const headers = (delay: number) => ({ ...bearer('x'), Prefer: `delay=${delay}` })
    // In the server's hands before the signal (each answered 100 Continue). The first on a kept-alive
    // connection, answered 2 s later; the second 4 s later, within the 5 s the server gives them.
    const first = takenRequest(`${server.url}/v1/pets`, { headers: headers(2000), keepAlive: true })
    const second = takenRequest(`${server.url}/v1/pets`, { headers: headers(4000) })
    await Promise.all([first.taken, second.taken])
    const answered = { first: false, second: false }
    void first.answer.then(() => (answered.first = true))
    void second.answer.then(() => (answered.second = true))
    const exited = server.stop('SIGTERM')
    // Asked again until refused (the signal is handled in its own time; bounded): refused while the
    // requests in flight still wait for their answers.
    let refused: unknown
    for (let i = 0; i < 100 && refused === undefined; i++) {
      refused = await fetch(`${server.url}/v1/pets`, {
        headers: { ...bearer('x'), Connection: 'close' },
      }).then(
        async (res) => void (await res.arrayBuffer()),
        (error: Error) => error,
      )
      if (refused === undefined) await new Promise((r) => setTimeout(r, 50))
    }
    expect(refused).toBeInstanceOf(TypeError)
    expect(answered).toEqual({ first: false, second: false })
    expect((await first.answer).status).toBe(200)
    // Its kept-alive connection is closed once it is answered, not when the 5 s grace runs out.
    expect(await first.closed.then(() => answered.second)).toBe(false)
    expect((await second.answer).status).toBe(200)
    expect(await exited).toBe(0)
  })

  it("is importable by its package name: import { createApp } from 'petstore-mock'", () => {
    const script =
      "import('petstore-mock').then(async ({ createApp }) => { const r = await createApp().request('/v1/pets', { headers: { Authorization: 'Bearer x' } }); console.log(r.status) })"
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 10_000,
    })
    expect(result.stderr).toBe('')
    expect(result.stdout).toBe('200\n')
  })

  it('stops on SIGINT too', async () => {
    const server = await spawnServer(['--log', 'silent'])
    expect(await server.stop('SIGINT')).toBe(0)
  })

  it('serves faker data when asked', async () => {
    const server = await spawnServer(['--faker', '--count', '5', '--seed', '3', '--log', 'silent'])
    try {
      const res = await fetch(`${server.url}/v1/pets`, { headers: bearer('x') })
      expect(await res.json()).toHaveLength(5)
    } finally {
      await server.stop()
    }
  })

  it('serves the edge data profile with --faker --data edge (the flag wins over PETSTORE_MOCK_DATA)', async () => {
    const server = await spawnServer(['--faker', '--count', '20', '--seed', '3', '--data', 'edge', '--log', 'silent'], {
      PETSTORE_MOCK_DATA: 'realistic',
    })
    try {
      const res = await fetch(`${server.url}/v1/pets?limit=20`, { headers: bearer('x') })
      expect(await res.json()).toEqual(await fakePets(20, 3, 'edge'))
      expect(server.stderr()).toContain('20 from faker (count 20, seed 3, data edge)')
    } finally {
      await server.stop()
    }
  })

  it('connection_reset destroys the socket without an answer, and the server keeps serving', async () => {
    const server = await spawnServer(['--log', 'silent'])
    try {
      const rule = await fetch(`${server.url}/__admin/faults`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"operation":"listPets","fault":"connection_reset","times":1}',
      })
      expect(rule.status).toBe(201)
      const error = await fetch(`${server.url}/v1/pets`, { headers: bearer('x') }).catch((e: Error) => e)
      expect(error).toBeInstanceOf(TypeError)
      expect((await fetch(`${server.url}/v1/pets`, { headers: bearer('x') })).status).toBe(200)
      const { requests } = await (await fetch(`${server.url}/__admin/requests?operation=listPets`)).json()
      expect(requests.map((r: { status: number }) => r.status)).toEqual([200, 0])
    } finally {
      expect(await server.stop()).toBe(0)
    }
  })

  it('--faults installs rules at start-up; --delay and env-only options apply', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-faults-'))
    const file = join(dir, 'faults.yaml')
    writeFileSync(file, '- { operation: listPets, status: 503, times: 1 }\n')
    const server = await spawnServer(['--faults', file, '--log', 'silent'], {
      PETSTORE_MOCK_DELAY: '40-50',
      PETSTORE_MOCK_ADMIN_TOKEN: 'adm',
    })
    try {
      const headers = bearer('x')
      expect((await delayedAtLeast(39, () => fetch(`${server.url}/v1/pets`, { headers }))).status).toBe(503)
      expect((await fetch(`${server.url}/v1/pets`, { headers })).status).toBe(200)
      expect((await fetch(`${server.url}/__admin/faults`)).status).toBe(401)
      expect((await fetch(`${server.url}/__admin/faults`, { headers: bearer('adm') })).status).toBe(200)
    } finally {
      await server.stop()
    }
  })

  it('PETSTORE_MOCK_CLOCK and PETSTORE_MOCK_SUNSET from the environment: getPet is gone at the sunset, the limit answers 429', async () => {
    const spawned = Date.now()
    const server = await spawnServer(['--log', 'json', '--rate-limit', '2/h'], {
      PETSTORE_MOCK_CLOCK: '2030-12-05T00:00:00Z',
    })
    try {
      const headers = { ...bearer('secret-token'), 'User-Agent': 'rehearsal/1' }
      const clock = await (await fetch(`${server.url}/__admin/clock`)).json()
      expect(clock).toMatchObject({ frozen: false, real: false })
      // The mock clock starts at CLOCK and runs on: no further than the real time since the spawn.
      const ran = Date.parse(clock.now) - Date.parse('2030-12-05T00:00:00Z')
      expect(ran).toBeGreaterThanOrEqual(0)
      expect(ran).toBeLessThanOrEqual(Date.now() - spawned)
      const windowOpened = Date.now()
      const gone = await fetch(`${server.url}/v1/pets/1`, { headers })
      await assertContract('GET', '/v1/pets/1', gone)
      expect(gone.status).toBe(410)
      expect(gone.headers.get('link')).toBe('</v1/pets>; rel="successor-version"')
      expect(gone.headers.get('ratelimit')).toMatch(/^"default";r=1;t=(3600|3599)$/)
      expect((await fetch(`${server.url}/v1/pets`, { headers })).status).toBe(200)
      const throttled = await fetch(`${server.url}/v1/pets`, { headers })
      await assertContract('GET', '/v1/pets', throttled)
      expect(throttled.status).toBe(429)
      expect(throttled.headers.get('ratelimit-policy')).toBe('"default";q=2;w=3600')
      // The hour counts from the first request: no more of it gone than the real time since then.
      const retryAfter = Number(throttled.headers.get('retry-after'))
      expect(retryAfter).toBeLessThanOrEqual(3600)
      expect(retryAfter).toBeGreaterThanOrEqual(3600 - Math.ceil((Date.now() - windowOpened) / 1000))
      expect(server.stderr()).toContain('clock: 2030-12-05T00:00:00.000Z at start-up')
      expect(server.stderr()).toContain('rate limit: 2/h per API key')
    } finally {
      expect(await server.stop()).toBe(0)
    }
    const warnings = server
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((l) => l.level === 'warn')
    expect(warnings.map((l) => l.message)).toEqual([
      'getPet is deprecated and will be removed on 2030-12-05; called by Bearer se… with User-Agent "rehearsal/1" (session default); use GET /v1/pets?status={status} instead',
    ])
    const ignoring = await spawnServer(['--log', 'silent', '--clock', '2031-01-01T00:00:00Z'], {
      PETSTORE_MOCK_SUNSET: 'ignore',
    })
    try {
      const res = await fetch(`${ignoring.url}/v1/pets/1`, { headers: bearer('x') })
      expect([res.status, res.headers.get('ratelimit-policy')]).toEqual([200, null])
    } finally {
      await ignoring.stop()
    }
  })

  it('a broken --faults file stops start-up with exit code 1, naming file, entry and field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-faults-'))
    const file = join(dir, 'faults.json')
    writeFileSync(file, '[{"status": 503}, {"status": 503, "probability": 2}]')
    const result = run(['--faults', file])
    expect(result.status).toBe(1)
    expect(result.stderr).toContain(`${file}: entry 1: probability must be a number between 0 and 1`)
  })

  it.each([
    [['--bogus'], 2, 'unknown option --bogus'],
    [['--port', 'x'], 2, '--port must be an integer (got "x")'],
    [['--fixtures', '/nonexistent/pets.yaml'], 1, '/nonexistent/pets.yaml: cannot read'],
    [['--faker', '--count', '20', '--max-pets', '10'], 2, '20 seed pets exceed --max-pets 10'],
    [['--faker', '--data', 'weird'], 2, '--data must be one of realistic, edge (got "weird")'],
    [['--delay', '50-10'], 2, '--delay must be MS or MIN-MAX'],
    [['--cors', 'maybe'], 2, '--cors must be on or off'],
    [['--allowed-hosts', 'evil:1'], 2, '--allowed-hosts takes host names without scheme or port (got "evil:1")'],
    [
      ['--admin-cors-origin', 'qa.example'],
      2,
      '--admin-cors-origin takes origins: scheme://host[:port], no path (got "qa.example")',
    ],
    [['--clock', '2030-12-05'], 2, '--clock must be an ISO 8601 instant with a time zone'],
    [['--rate-limit', '10/fortnight'], 2, '--rate-limit must be <n>/<window>'],
  ])('%j exits %i with a message', (args, code, message) => {
    const result = run(args)
    expect(result.status).toBe(code)
    expect(result.stderr).toContain(message)
    // A mistake: the message and where --help is, not the usage (which would bury it).
    if (code === 2) {
      expect(result.stderr).not.toContain('Usage: petstore-mock')
      expect(
        result.stderr.endsWith('\nRun petstore-mock --help for every option (or see docs/reference/options.md).\n'),
      ).toBe(true)
    }
  })

  it('a mistyped flag: the error, the flag meant, where --help is; nothing else', () => {
    const result = run(['--max-session', '3'])
    expect(result.status).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(
      'petstore-mock: unknown option --max-session\n' +
        'did you mean --max-sessions?\n' +
        'Run petstore-mock --help for every option (or see docs/reference/options.md).\n',
    )
  })

  it('prints --help and --version', () => {
    expect(run(['--help']).stdout).toContain('--max-pets')
    expect(run(['--version']).stdout).toMatch(/^\d+\.\d+\.\d+\n$/)
  })
})
