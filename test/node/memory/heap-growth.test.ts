import { afterEach, describe, expect, it } from 'vitest'
import { heapGrowingPercent, heapGrowthFlag } from '../../../src/node/memory/heap-growth.js'
import { spawnServer, type SpawnedServer } from '../../helpers/spawn-server.js'

// The bin sets V8's heap growth step (heap-growth.ts). V8 says which step it used at each full
// collection under --trace-gc-verbose (on stdout): "[HeapController] factor 1.5 based on …".

describe('heapGrowthFlag', () => {
  it.each([
    { execArgv: [], nodeOptions: '', flag: '--heap-growing-percent=50' },
    {
      execArgv: ['--max-semi-space-size=4'],
      nodeOptions: '--max-old-space-size=300',
      flag: '--heap-growing-percent=50',
    },
    { execArgv: ['--heap-growing-percent=80'], nodeOptions: '', flag: undefined },
    { execArgv: ['--heap_growing_percent=80'], nodeOptions: '', flag: undefined },
    { execArgv: ['--heap-growing-percent', '80'], nodeOptions: '', flag: undefined },
    { execArgv: [], nodeOptions: ' --heap-growing-percent=20 ', flag: undefined },
    { execArgv: ['--heap-growing-percent-x=1'], nodeOptions: '', flag: '--heap-growing-percent=50' },
  ])('$execArgv, NODE_OPTIONS "$nodeOptions": $flag', ({ execArgv, nodeOptions, flag }) => {
    expect(heapGrowthFlag(execArgv, nodeOptions)).toBe(flag)
  })

  it('is 50 %', () => expect(heapGrowingPercent).toBe(50))
})

let server: SpawnedServer | undefined
afterEach(async () => {
  await server?.stop()
  server = undefined
})

/** The growth factors V8 reports once a seed of 20,000 pets made it collect in full (a few at least). */
const factorsAfterSeed = async (node: string[]): Promise<string[]> => {
  server = await spawnServer(['--log', 'silent'], {}, 30_000, [process.execPath, '--trace-gc-verbose', ...node])
  for (let round = 0; round < 5; round++) {
    const seeded = await fetch(`${server.url}/__admin/seed`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 20_000 }),
    })
    expect(seeded.status).toBe(204)
    const factors = [...server.stdout().matchAll(/\[HeapController\] factor ([0-9.]+)/g)].map((m) => m[1]!)
    if (factors.length > 0) return factors
  }
  throw new Error('no full collection after 5 seeds of 20,000 pets')
}

describe('the server process', () => {
  it('grows its old space by 50 % steps', async () => {
    expect(new Set(await factorsAfterSeed([]))).toEqual(new Set(['1.5']))
  })

  it('keeps a step the user gave', async () => {
    expect(new Set(await factorsAfterSeed(['--heap-growing-percent=80']))).toEqual(new Set(['1.8']))
  })
})
