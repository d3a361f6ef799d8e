import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { cgroupLimit } from '../../../src/node/memory/cgroup-limit.js'
import { deriveBudget, memoryLimits } from '../../../src/node/memory/memory-budget-option.js'
import {
  beyondOldSpaceMiB,
  budgetForLimit,
  budgetForOldSpace,
  heapFlagsOf,
  oldSpaceFor,
  relaunchFlags,
  semiSpaceMiB,
} from '../../../src/node/memory/heap-flags.js'
import { parseCommandLine } from '../../../src/node/cli/cli.js'
import { banner } from '../../../src/node/cli/banner.js'
import { configDefaults } from '../../../src/node/config/config.js'

const MiB = 2 ** 20
const roots = mkdtempSync(join(tmpdir(), 'cgroup-'))
afterAll(() => rmSync(roots, { recursive: true, force: true }))

/** A fake `/` with the given files. */
const root = (name: string, files: Record<string, string>): string => {
  const dir = join(roots, name)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}

describe('cgroupLimit', () => {
  it("reads cgroup v2's memory.max of the process's own cgroup", () => {
    const dir = root('v2', {
      'proc/self/cgroup': '0::/kubepods/pod1\n',
      'sys/fs/cgroup/kubepods/pod1/memory.max': '268435456\n',
      'sys/fs/cgroup/memory.max': 'max\n',
    })
    expect(cgroupLimit(dir)).toEqual({ bytes: 256 * MiB, file: join(dir, 'sys/fs/cgroup/kubepods/pod1/memory.max') })
  })

  it("falls back to the root's (what a container sees), and reads `max` as no limit", () => {
    const dir = root('v2-root', { 'proc/self/cgroup': '0::/\n', 'sys/fs/cgroup/memory.max': '536870912\n' })
    expect(cgroupLimit(dir)?.bytes).toBe(512 * MiB)
    const none = root('v2-max', { 'proc/self/cgroup': '0::/\n', 'sys/fs/cgroup/memory.max': 'max\n' })
    expect(cgroupLimit(none)).toBeUndefined()
  })

  it("reads cgroup v1's memory.limit_in_bytes, its huge 'no limit' as none", () => {
    const dir = root('v1', {
      'proc/self/cgroup': '4:memory:/docker/abc\n1:cpu:/\n',
      'sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes': '134217728\n',
    })
    expect(cgroupLimit(dir)?.bytes).toBe(128 * MiB)
    const none = root('v1-none', {
      'proc/self/cgroup': '4:memory:/\n',
      'sys/fs/cgroup/memory/memory.limit_in_bytes': '9223372036854771712\n',
    })
    expect(cgroupLimit(none)).toBeUndefined()
  })

  it('is undefined where there is no cgroup file at all', () => {
    expect(cgroupLimit(root('bare', {}))).toBeUndefined()
  })
})

describe('deriveBudget', () => {
  const none = { flags: {}, heapLimitBytes: 4288 * MiB }

  it('takes --max-memory as it is', () => {
    expect(deriveBudget(256, none)).toEqual({ mib: 256, from: '--max-memory', bounded: true })
  })

  it('takes the budget whose old space (7/8 of it) is --max-old-space-size, not heap_size_limit (which adds the young generation)', () => {
    // Node 24: --max-old-space-size=256 gives a heap_size_limit of 448 MiB (3 × 64 MiB semi-spaces).
    expect(deriveBudget(undefined, { flags: { oldSpaceMiB: 256 }, heapLimitBytes: 448 * MiB })).toEqual({
      mib: 292,
      from: '--max-old-space-size=256',
      bounded: true,
    })
  })

  it("takes the smaller of the container limit's and the heap flag's", () => {
    const cgroup = { bytes: 256 * MiB, file: '/sys/fs/cgroup/memory.max' }
    // 256 MiB less 104 besides the old space: an old space of 152 MiB, a budget of 173.
    expect(deriveBudget(undefined, { cgroup, ...none })).toEqual({
      mib: 173,
      from: "the container's memory limit, 256 MiB (/sys/fs/cgroup/memory.max)",
      bounded: true,
    })
    expect(deriveBudget(undefined, { cgroup, flags: { oldSpaceMiB: 100 }, heapLimitBytes: 292 * MiB })).toMatchObject({
      mib: 72,
      from: '--max-old-space-size=100',
    })
  })

  it("is unbounded by anything but Node's default heap without a flag or a container limit", () => {
    expect(deriveBudget(undefined, none)).toEqual({
      mib: 4900,
      from: "Node's default heap limit, 4288 MiB",
      bounded: false,
    })
  })

  it('is at least 16 MiB', () => {
    expect(deriveBudget(undefined, { flags: { oldSpaceMiB: 40 }, heapLimitBytes: 232 * MiB }).mib).toBe(16)
  })

  it("reads this process's heap flags and V8's heap limit", () => {
    const limits = memoryLimits(['--max-old-space-size=300'], '--max-semi-space-size=4')
    expect(limits.flags).toEqual({ oldSpaceMiB: 300, semiSpaceMiB: 4 })
    expect(limits.heapLimitBytes).toBeGreaterThan(64 * MiB)
  })
})

describe('heap flags', () => {
  it('reads --max-old-space-size and --max-semi-space-size from NODE_OPTIONS and the command line, the later winning', () => {
    expect(heapFlagsOf([], '')).toEqual({})
    expect(heapFlagsOf(['--max-old-space-size=256'])).toEqual({ oldSpaceMiB: 256 })
    expect(heapFlagsOf(['--max_old_space_size', '300'], '--max-semi-space-size=16')).toEqual({
      oldSpaceMiB: 300,
      semiSpaceMiB: 16,
    })
    expect(heapFlagsOf(['--max-old-space-size=200'], ' --max-old-space-size=100 ')).toEqual({ oldSpaceMiB: 200 })
    expect(heapFlagsOf(['--max-old-space-size=x'])).toEqual({})
  })

  it('sizes the old space at 7/8 of the budget, at least half of it + 64 MiB; and back', () => {
    expect(oldSpaceFor(256)).toBe(224)
    expect(oldSpaceFor(64)).toBe(96)
    expect(oldSpaceFor(1024)).toBe(896)
    expect(budgetForOldSpace(256)).toBe(292)
    expect(budgetForOldSpace(96)).toBe(64)
    // A budget's own old space gives the budget back (or more): a relaunched server derives the same one.
    for (const budget of [1, 16, 64, 100, 173, 256, 292, 1000, 4096]) {
      expect(budgetForOldSpace(oldSpaceFor(budget))).toBeGreaterThanOrEqual(budget)
    }
    expect(budgetForLimit(256 * MiB)).toBe(173)
    expect(oldSpaceFor(173) + beyondOldSpaceMiB).toBeLessThanOrEqual(256)
  })

  it('asks for the missing flags of a bounded budget only', () => {
    expect(relaunchFlags(256, true, {})).toEqual(['--max-old-space-size=224', `--max-semi-space-size=${semiSpaceMiB}`])
    expect(relaunchFlags(292, true, { oldSpaceMiB: 256 })).toEqual(['--max-semi-space-size=8'])
    expect(relaunchFlags(256, true, { oldSpaceMiB: 256, semiSpaceMiB: 16 })).toEqual([])
    expect(relaunchFlags(4900, false, {})).toEqual([])
  })
})

describe('--max-memory', () => {
  it('is read from the flag and from PETSTORE_MOCK_MAX_MEMORY; none by default', () => {
    const config = (argv: string[], env: Record<string, string> = {}) => {
      const command = parseCommandLine(argv, env)
      return command.run === 'serve' ? command.config : undefined
    }
    expect(config(['--max-memory', '256'])?.maxMemory).toBe(256)
    expect(config([], { PETSTORE_MOCK_MAX_MEMORY: '300' })?.maxMemory).toBe(300)
    expect(config([])?.maxMemory).toBeUndefined()
    expect(() => config(['--max-memory', '0'])).toThrow('--max-memory must be between 1 and 1048576 (got 0)')
  })

  it('the banner shows the budget, where it comes from, and its shares', () => {
    const text = banner('http://127.0.0.1:4010', { ...configDefaults, log: 'silent' }, 'fixtures', 12, [], {
      mib: 256,
      from: '--max-memory',
      bounded: true,
    })
    expect(text).toContain(
      '  memory: budget 256 MiB (--max-memory): 64 MiB for the journal, 192 MiB for pets, rules and sessions (507 beyond)\n',
    )
  })
})
