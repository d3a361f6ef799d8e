import { Agent, request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { growthFactorFor, youngGenerationGiven } from '../../../src/node/memory/young-generation.js'
import { spawnServer, type SpawnedServer } from '../../helpers/spawn-server.js'

// The bin holds V8's young generation at 4 MiB a semi-space (young-generation.ts). V8 says the size
// at each collection under --trace-gc-verbose (on stdout): "New space, used: … KB, available: … KB";
// used + available is one semi-space's capacity.

const KiB = 1024

describe('youngGenerationGiven', () => {
  it.each([
    { execArgv: [], nodeOptions: '', given: false },
    { execArgv: ['--max-old-space-size=300', '--heap-growing-percent=80'], nodeOptions: '', given: false },
    { execArgv: ['--max-semi-space-size=4'], nodeOptions: '', given: true },
    { execArgv: ['--max_semi_space_size', '16'], nodeOptions: '', given: true },
    { execArgv: [], nodeOptions: ' --min-semi-space-size=2 ', given: true },
    { execArgv: ['--semi-space-growth-factor=3'], nodeOptions: '', given: true },
    { execArgv: ['--max-semi-space-size-x=1'], nodeOptions: '', given: false },
  ])('$execArgv, NODE_OPTIONS "$nodeOptions": $given', ({ execArgv, nodeOptions, given }) => {
    expect(youngGenerationGiven(execArgv, nodeOptions)).toBe(given)
  })
})

describe('growthFactorFor', () => {
  it.each([
    { kib: 1023, factor: 2 },
    { kib: 2047, factor: 2 },
    { kib: 2048, factor: 2 },
    { kib: 2049, factor: 1 },
    { kib: 4095, factor: 1 },
    { kib: 4096, factor: 1 },
    { kib: 65532, factor: 1 },
  ])('a semi-space of $kib KiB: $factor', ({ kib, factor }) => {
    expect(growthFactorFor(kib * KiB)).toBe(factor)
  })
})

let server: SpawnedServer | undefined
afterEach(async () => {
  await server?.stop()
  server = undefined
})

/** `count` creates of pets with 1,000-character names (each kept: the young generation's survivors), 8 at a time. */
const creates = async (url: string, count: number): Promise<void> => {
  const agent = new Agent({ keepAlive: true, maxSockets: 8 })
  const body = JSON.stringify({ name: 'n'.repeat(1000), categoryId: 1, status: 'available' })
  let sent = 0
  const one = () =>
    new Promise<number>((resolve, reject) => {
      const req = request(
        `${url}/v1/pets`,
        {
          method: 'POST',
          agent,
          headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        },
        (res) => res.resume().on('end', () => resolve(res.statusCode ?? 0)),
      )
      req.on('error', reject)
      req.end(body)
    })
  try {
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (sent < count) {
          sent++
          expect(await one()).toBe(201)
        }
      }),
    )
  } finally {
    agent.destroy()
  }
}

/** The largest semi-space V8 reported during 5,000 creates, KiB. */
const largestSemiSpaceKiB = async (node: string[]): Promise<number> => {
  server = await spawnServer(['--log', 'silent'], {}, 30_000, [process.execPath, '--trace-gc-verbose', ...node])
  await creates(server.url, 5000)
  const sizes = [...server.stdout().matchAll(/New space, +used: +(\d+) KB, available: +(\d+) KB/g)].map(
    (m) => Number(m[1]) + Number(m[2]),
  )
  expect(sizes.length).toBeGreaterThan(10)
  return Math.max(...sizes)
}

describe('the server process', () => {
  it('keeps its young generation at 4 MiB a semi-space under creates', async () => {
    expect(await largestSemiSpaceKiB([])).toBeLessThanOrEqual(4096)
  })

  it("keeps the user's own sizing: --max-semi-space-size=16 lets it grow past 4 MiB", async () => {
    expect(await largestSemiSpaceKiB(['--max-semi-space-size=16'])).toBeGreaterThan(4096)
  })
})
