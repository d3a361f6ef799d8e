import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createApp } from '../../../src/index.js'
import { listen, type ListenOptions, type RunningServer } from '../../../src/node/server/server.js'
import { defaultMaxConnections, healthReserve, openFilesLimit } from '../../../src/node/server/connection-limit.js'
import { binPath, spawnServer } from '../../helpers/spawn-server.js'

// Issue 40 §4 and §5 against real sockets on 127.0.0.1: a lowered connection limit, the health reserve,
// idle keep-alives closed, two Host headers refused, and --allowed-hosts patterns refused at start.

const started: RunningServer[] = []
const held: Socket[] = []
afterEach(async () => {
  for (const socket of held.splice(0)) socket.destroy()
  await Promise.all(started.splice(0).map((server) => server.close(200)))
})

const start = async (options: Partial<ListenOptions> = {}): Promise<{ server: RunningServer; port: number }> => {
  const server = await listen(createApp({ apiKeys: ['k'] }), {
    host: '127.0.0.1',
    port: 0,
    headersTimeout: 20_000,
    requestTimeout: 30_000,
    sendTimeout: 30_000,
    ...options,
  })
  started.push(server)
  return { server, port: Number(new URL(server.url).port) }
}

/** Resolves once `check` holds, polling at most `tries` times (a bounded wait, not a stopwatch). */
const eventually = async (check: () => Promise<boolean> | boolean, tries = 200): Promise<void> => {
  for (let i = 0; i < tries; i++) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error('the condition did not hold in time')
}

const connections = (server: RunningServer): Promise<number> =>
  new Promise((resolve, reject) =>
    server.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  )

/** Opens `count` connections that send nothing, and waits until the server holds them all. */
const hold = async (server: RunningServer, port: number, count: number): Promise<void> => {
  const before = await connections(server)
  for (let i = 0; i < count; i++) {
    const socket = connect(port, '127.0.0.1')
    socket.on('error', () => {})
    held.push(socket)
  }
  await eventually(async () => (await connections(server)) >= before + count)
}

/** Sends raw bytes on a new connection; resolves with all it read until the server closed it (bounded). */
const exchange = (port: number, text: string, timeoutMs = 15_000): Promise<string> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let received = ''
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no close within ${timeoutMs} ms; got ${JSON.stringify(received)}`))
    }, timeoutMs)
    socket.on('data', (chunk) => (received += chunk))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(received)
    })
    socket.on('connect', () => socket.write(text))
  })

const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}Connection: close\r\n\r\n`

const statusOf = (answer: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1])
const bodyOf = (answer: string): unknown => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))

describe('a connection limit with a reserve for health (issue 40 §5)', () => {
  it('past the limit, health still answers and other requests get 503 with the Error body', async () => {
    const { server, port } = await start({ maxConnections: 4 })
    await hold(server, port, 4)
    const health = await exchange(port, get('/__admin/health/live'))
    expect(statusOf(health)).toBe(200)
    const refused = await exchange(port, get('/v1/pets', 'Authorization: Bearer k\r\n'))
    expect(statusOf(refused)).toBe(503)
    expect(refused).toMatch(/\r\nretry-after: 1\r\n/i)
    expect(refused).toMatch(/\r\nconnection: close\r\n/i)
    expect(bodyOf(refused)).toEqual({
      code: 'service_unavailable',
      message:
        'The server holds its most connections (4, --max-connections); only health is answered beyond them. Retry later.',
      status: 503,
    })
  })

  it('a slot freed is served again', async () => {
    const { server, port } = await start({ maxConnections: 2 })
    await hold(server, port, 2)
    expect(statusOf(await exchange(port, get('/v1/pets', 'Authorization: Bearer k\r\n')))).toBe(503)
    held.pop()!.destroy()
    await eventually(async () => (await connections(server)) <= 1)
    expect(statusOf(await exchange(port, get('/v1/pets', 'Authorization: Bearer k\r\n')))).toBe(200)
  })

  it('beyond the reserve, a connection is closed at once, without an answer', async () => {
    const { server, port } = await start({ maxConnections: 2 })
    await hold(server, port, 2 + healthReserve)
    expect(await exchange(port, get('/__admin/health/live'))).toBe('')
  })

  it('300 silent connections against a limit of 20: health answers throughout', async () => {
    const { server, port } = await start({ maxConnections: 20 })
    for (let i = 0; i < 300; i++) {
      const socket = connect(port, '127.0.0.1')
      socket.on('error', () => {})
      held.push(socket)
    }
    await eventually(async () => (await connections(server)) >= 20)
    // The reserve's sockets are closed within seconds when they send nothing; a probe gets one.
    let answered = 0
    for (let i = 0; i < 40 && answered === 0; i++) {
      if (statusOf(await exchange(port, get('/__admin/health/live'))) === 200) answered++
      else await new Promise((resolve) => setTimeout(resolve, 250))
    }
    expect(answered).toBe(1)
    expect(await connections(server)).toBeLessThanOrEqual(20 + healthReserve)
  })
})

describe('the default limit follows the open-files limit', () => {
  it('is 512, or the soft ulimit -n less 64 when lower, at least 16', () => {
    expect(defaultMaxConnections(undefined)).toBe(512)
    expect(defaultMaxConnections(1_048_576)).toBe(512)
    expect(defaultMaxConnections(1024)).toBe(512)
    expect(defaultMaxConnections(256)).toBe(192)
    expect(defaultMaxConnections(40)).toBe(16)
  })

  it('reads the soft limit from /proc/self/limits', () => {
    const dir = mkdtempSync(join(tmpdir(), 'limits-'))
    const file = (text: string) => {
      const path = join(dir, `limits-${Math.random()}`)
      writeFileSync(path, text)
      return path
    }
    const header = 'Limit                     Soft Limit           Hard Limit           Units     \n'
    expect(
      openFilesLimit(file(`${header}Max open files            256                  4096                 files     \n`)),
    ).toBe(256)
    expect(
      openFilesLimit(file(`${header}Max open files            unlimited            unlimited            files     \n`)),
    ).toBeUndefined()
    expect(openFilesLimit(join(dir, 'none'))).toBeUndefined()
  })

  // The reproduction, against the built command: ulimit -n 256, 300 connections sending a
  // slow request with no key; health and a legitimate request are still answered.
  it.runIf(process.platform === 'linux' && spawnSync('prlimit', ['--version']).status === 0)(
    'under ulimit -n 256, 300 held connections leave health and a keyed request answered',
    async () => {
      const server = await spawnServer(['--api-key', 'only-this-key', '--log', 'silent'], {}, 30_000, [
        'prlimit',
        '--nofile=256:256',
        process.execPath,
      ])
      try {
        const port = Number(new URL(server.url).port)
        for (let i = 0; i < 300; i++) {
          const socket = connect(port, '127.0.0.1')
          socket.on('error', () => {})
          socket.on('connect', () => socket.write('GET /v1/pets?__delay=15000 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'))
          held.push(socket)
        }
        // Health through the reserve, retried while the reserve is busy (bounded).
        let health = 0
        for (let i = 0; i < 40 && health !== 200; i++) {
          health = statusOf(await exchange(port, get('/__admin/health/live')))
          if (health !== 200) await new Promise((resolve) => setTimeout(resolve, 250))
        }
        expect(health).toBe(200)
        // The held requests are answered (401: no key) and their sockets freed; then a keyed one is served.
        let pets = 0
        for (let i = 0; i < 80 && pets !== 200; i++) {
          pets = statusOf(await exchange(port, get('/v1/pets', 'Authorization: Bearer only-this-key\r\n')))
          if (pets !== 200) await new Promise((resolve) => setTimeout(resolve, 250))
        }
        expect(pets).toBe(200)
        expect(server.stderr()).not.toMatch(/EMFILE/)
      } finally {
        await server.stop()
      }
    },
  )
})

describe('idle keep-alive connections are closed (--keep-alive-timeout)', () => {
  it('a keep-alive connection left idle is closed by the server', async () => {
    const { port } = await start({ keepAliveTimeout: 3000 })
    // Keep-alive asked for: the answer leaves the connection open, says for how long, and the server
    // closes it once idle that long (exchange resolves on the close; it fails after 15 s).
    const answer = await exchange(port, 'GET /__admin/health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    expect(statusOf(answer)).toBe(200)
    expect(answer).toMatch(/\r\nkeep-alive: timeout=3\r\n/i)
  })
})

describe('two Host headers (RFC 9112 §3.2)', () => {
  it('are a 400 with the Error body, whichever comes first', async () => {
    const { port } = await start()
    for (const [first, second] of [
      ['127.0.0.1', 'evil.example'],
      ['evil.example', 'localhost'],
      ['localhost', 'localhost'],
    ]) {
      const answer = await exchange(
        port,
        `GET /__admin/state HTTP/1.1\r\nHost: ${first}\r\nX-Other: 1\r\nhost: ${second}\r\nConnection: close\r\n\r\n`,
      )
      expect(statusOf(answer)).toBe(400)
      expect(bodyOf(answer)).toEqual({
        code: 'bad_request',
        message: 'The Host header is given more than once; send one (RFC 9112 §3.2).',
        status: 400,
      })
    }
  })

  it('one Host is served', async () => {
    const { port } = await start()
    expect(statusOf(await exchange(port, get('/__admin/health/live')))).toBe(200)
  })

  it('two Authorization headers over HTTP: 400 naming the duplicate', async () => {
    const { port } = await start()
    const answer = await exchange(port, get('/v1/pets', 'Authorization: Bearer k\r\nAuthorization: Bearer k\r\n'))
    expect(statusOf(answer)).toBe(400)
    expect((bodyOf(answer) as { message: string }).message).toBe(
      'The Authorization header is given more than once; send it once: Authorization: Bearer <API key>.',
    )
  })
})

describe('--allowed-hosts patterns whose last two labels are not literal (issue 40 §4)', () => {
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [binPath, '--port', '0', ...args], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, ...env },
    })
  const problem =
    'a * may stand for a label before the last two only (petstore-mock.*.svc.cluster.local): in the last two it would match a domain anyone can register'

  it.each([['petstore.*'], ['mock.*.*'], ['mock.*.com'], ['petstore-mock.*.svc']])(
    '%s: exit 2, the line naming it',
    (pattern) => {
      const result = run(['--allowed-hosts', pattern])
      expect(result.status).toBe(2)
      expect(result.stderr.split('\n')[0]).toBe(`petstore-mock: --allowed-hosts: ${problem} (got "${pattern}")`)
    },
  )

  it('in the variable too', () => {
    const result = run([], { PETSTORE_MOCK_ALLOWED_HOSTS: 'ok.local,petstore.*' })
    expect(result.status).toBe(2)
    expect(result.stderr).toContain(`PETSTORE_MOCK_ALLOWED_HOSTS: ${problem} (got "petstore.*")`)
  })
})
