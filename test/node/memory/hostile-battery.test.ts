import { afterEach, describe, expect, it } from 'vitest'
import { hostileBattery, peakRssMiB } from '../../helpers/hostile-battery.js'
import { expectBatteryHeld } from '../../helpers/battery-held.js'
import { spawnServer, type SpawnedServer } from '../../helpers/spawn-server.js'

// Issue 29: one client, documented calls only, cannot take the server down. The server runs in a
// child process; what is asserted is what it answered and its peak RSS (VmHWM), never a time.
// --max-sessions 200: every session of the battery is kept, so that every 201 must read back.
// The bin starts itself again (same PID: process.execve) with the heap flags the budget needs
// (src/node/memory/heap-flags.ts), so the PID's VmHWM is the serving process's.

let server: SpawnedServer | undefined
afterEach(async () => {
  await server?.stop()
  server = undefined
})

const budgetOf = async (url: string): Promise<number> => {
  const health = (await (await fetch(`${url}/__admin/health`)).json()) as { memory: { budgetBytes: number } }
  return health.memory.budgetBytes / 2 ** 20
}

describe.each([
  ['--max-memory 256', ['--max-memory', '256'], []],
  ['no flag, node --max-old-space-size=256', [], ['--max-old-space-size=256']],
])('the hostile battery, %s', (_, args, nodeFlags) => {
  it('lives: health 200, control reads 200, refusals 507 with the Error body, nothing else 5xx, every 201 reads back, peak RSS bounded by the budget', async () => {
    server = await spawnServer(['--log', 'silent', '--max-sessions', '200', ...args], {}, 30_000, [
      process.execPath,
      ...nodeFlags,
    ])
    const budget = await budgetOf(server.url)
    // The budget whose old space (7/8 of it) is 256 MiB.
    expect(budget).toBe(args.length > 0 ? 256 : 292)
    const report = await hostileBattery(server.url)
    const peak = peakRssMiB(server.child.pid!)
    expect(server.child.exitCode).toBeNull()
    expectBatteryHeld(report)
    // Issue 29: peak RSS below 1.25 × the budget (before: 714 MiB at --max-memory 256 on Node's default
    // heap; a state of two-byte names held 24 MiB per 450 pets and took a 256 MiB heap down).
    expect(peak).toBeLessThan(1.25 * budget)
  }, 600_000)
})
