import { afterEach, describe, expect, it } from 'vitest'
import { type SpawnedServer, spawnServer } from '../../helpers/spawn-server.js'
import { takenRequest } from '../../helpers/in-flight.js'
import { bearer } from '../../helpers/auth.js'
import {
  answered,
  defaultDrain,
  expectCleanStop,
  readiness,
  readinessUntil,
  slowPostThroughStop,
} from '../../helpers/drain.js'

// The drain on a stop signal (issue 41 §1), on the memory store; on Redis: test/node/drain/drain-redis.test.ts.
const started: SpawnedServer[] = []
const spawn = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
  const server = await spawnServer(['--log', 'silent', ...args], env)
  started.push(server)
  return server
}

afterEach(() => {
  for (const server of started.splice(0)) if (server.child.exitCode === null) server.child.kill('SIGKILL')
})

describe('SIGTERM drains the server (memory store)', () => {
  it('a slow POST in flight gets its 201 and reads back; readiness is 503 at once while the server still serves; exit 0', async () => {
    // 10 s of drain rather than the default 5: the pet is read back from this replica's memory, which
    // needs the server still serving once the 2 s POST is answered, however busy the machine.
    const server = await spawn(['--drain-seconds', '10'])
    expect((await readiness(server.url)).status).toBe(200)
    const seen = await slowPostThroughStop(server, 'team-a-slow')
    expectCleanStop(seen)
    expect(server.stderr()).toContain('SIGTERM: draining (not ready, still serving)')
  }, 60_000)

  it('with the default drain, it still accepts new connections after the signal, then refuses them and exits 0', async () => {
    const server = await spawn([], defaultDrain)
    const exited = server.stop('SIGTERM')
    expect((await readinessUntil(server.url, 503)).status).toBe(503)
    // A new connection (Connection: close: no pooled one) is served during the drain.
    const during = await answered(`${server.url}/v1/pets`, { headers: { ...bearer(), Connection: 'close' } })
    expect(during.status).toBe(200)
    await during.arrayBuffer()
    expect(await exited).toBe(0)
    await expect(fetch(`${server.url}/v1/pets`, { headers: bearer() })).rejects.toThrow(TypeError)
  }, 60_000)

  it('an answer in flight when the drain began closes its kept-alive connection', async () => {
    const server = await spawn(['--drain-seconds', '8'])
    const slow = takenRequest(`${server.url}/v1/pets?__delay=1500`, { headers: bearer(), keepAlive: true })
    await slow.taken
    const exited = server.stop('SIGTERM')
    expect((await readinessUntil(server.url, 503)).status).toBe(503)
    expect((await slow.answer).status).toBe(200)
    // Closed by the server once answered (Connection: close), during the drain: the pool reconnects.
    await slow.closed
    expect(server.child.exitCode).toBeNull()
    expect(await exited).toBe(0)
  }, 60_000)

  it('a journal wait held at the stop is answered (408) and the server exits 0, before the grace', async () => {
    const server = await spawn(['--drain-seconds', '0', '--grace-seconds', '120'])
    const wait = takenRequest(`${server.url}/__admin/requests?wait=60s&count=1000`, { headers: bearer() })
    await wait.taken
    const exited = server.stop('SIGTERM')
    expect((await wait.answer).status).toBe(408)
    expect(await exited).toBe(0)
  }, 60_000)

  it('a second signal exits at once with code 1, dropping what is in flight', async () => {
    const server = await spawn(['--drain-seconds', '60'])
    const slow = takenRequest(`${server.url}/v1/pets?__delay=30000`, { headers: bearer() })
    await slow.taken
    server.child.kill('SIGTERM')
    expect((await readinessUntil(server.url, 503)).status).toBe(503)
    expect(await server.stop('SIGINT')).toBe(1)
    await expect(slow.answer).rejects.toThrow()
    expect(server.stderr()).toContain('SIGINT again: exiting now (code 1)')
  }, 60_000)

  it('the end of --grace-seconds exits with code 1, dropping a request still held', async () => {
    const server = await spawn(['--drain-seconds', '0', '--grace-seconds', '2'])
    const slow = takenRequest(`${server.url}/v1/pets?__delay=30000`, { headers: bearer() })
    await slow.taken
    expect(await server.stop('SIGTERM')).toBe(1)
    await expect(slow.answer).rejects.toThrow()
    expect(server.stderr()).toContain('still stopping 2 s after SIGTERM (--grace-seconds)')
  }, 60_000)
})
