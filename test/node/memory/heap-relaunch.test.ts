import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { cgroupLimit } from '../../../src/node/memory/cgroup-limit.js'
import { spawnServer, type SpawnedServer } from '../../helpers/spawn-server.js'

// The bin starts itself again, once, with the heap flags its memory budget needs (heap-flags.ts):
// same PID (process.execve), the banner printed once, signals and the exit code its own.

let server: SpawnedServer | undefined
afterEach(async () => {
  await server?.stop()
  server = undefined
})

const commandLine = (pid: number): string[] => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean)

describe('the heap of a bounded budget', () => {
  it('--max-memory 256: the same process runs with --max-old-space-size=224 --max-semi-space-size=8; SIGTERM ends it with 0', async () => {
    server = await spawnServer(['--max-memory', '256'])
    const args = commandLine(server.child.pid!)
    expect(args.slice(1, 3)).toEqual(['--max-old-space-size=224', '--max-semi-space-size=8'])
    expect(server.stderr().match(/memory: budget/g)).toHaveLength(1)
    expect((await fetch(`${server.url}/__admin/health`)).status).toBe(200)
    const stopping = server
    server = undefined
    expect(await stopping.stop('SIGTERM')).toBe(0)
  })

  it('keeps a heap flag the user gave and adds only the missing one, once', async () => {
    server = await spawnServer([], {}, 30_000, [process.execPath, '--max-old-space-size=256'])
    expect(commandLine(server.child.pid!).slice(1, 3)).toEqual(['--max-old-space-size=256', '--max-semi-space-size=8'])
    const health = (await (await fetch(`${server.url}/__admin/health`)).json()) as { memory: { budgetBytes: number } }
    expect(health.memory.budgetBytes).toBe(292 * 2 ** 20)
  })

  it('NODE_OPTIONS counts as given; with both flags nothing is added', async () => {
    server = await spawnServer(['--max-memory', '256'], {
      NODE_OPTIONS: '--max-old-space-size=300 --max-semi-space-size=16',
    })
    expect(commandLine(server.child.pid!).filter((arg) => arg.startsWith('--max-'))).toEqual(['--max-memory'])
  })

  it("leaves a server without a bound on Node's default heap (in a container with a limit: sized for it)", async () => {
    server = await spawnServer([])
    const flags = commandLine(server.child.pid!).filter((arg) => arg.includes('space-size'))
    expect(flags).toHaveLength(cgroupLimit() === undefined ? 0 : 2)
  })
})
