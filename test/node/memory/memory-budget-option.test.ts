import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { cgroupLimit } from '../../../src/node/memory/cgroup-limit.js'
import { deriveBudget, memoryLimits, ownNeedBytes } from '../../../src/node/memory/memory-budget-option.js'
import { parseCommandLine } from '../../../src/node/cli/cli.js'
import { banner } from '../../../src/node/cli/banner.js'
import { configDefaults } from '../../../src/node/cli/config.js'

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
  it('takes --max-memory as it is', () => {
    expect(deriveBudget(256, { heapLimitBytes: 4096 * MiB })).toEqual({ mib: 256, from: '--max-memory' })
  })

  it('takes the V8 heap limit, less what the server needs, without a container limit', () => {
    expect(deriveBudget(undefined, { heapLimitBytes: 288 * MiB })).toEqual({
      mib: 172,
      from: 'the V8 heap limit, 288 MiB, less 116 MiB the server needs',
    })
  })

  it('takes the smaller of the container limit and the heap limit', () => {
    const cgroup = { bytes: 256 * MiB, file: '/sys/fs/cgroup/memory.max' }
    expect(deriveBudget(undefined, { cgroup, heapLimitBytes: 4144 * MiB })).toEqual({
      mib: 153,
      from: "the container's memory limit (/sys/fs/cgroup/memory.max), 256 MiB, less 103 MiB the server needs",
    })
    expect(deriveBudget(undefined, { cgroup, heapLimitBytes: 200 * MiB }).from).toMatch(/^the V8 heap limit, 200 MiB/)
  })

  it('leaves the server at least 64 MiB, and the budget at least 16 MiB', () => {
    expect(ownNeedBytes(100 * MiB)).toBe(64 * MiB)
    expect(deriveBudget(undefined, { heapLimitBytes: 70 * MiB }).mib).toBe(16)
  })

  it("reads this process's heap limit from V8", () => {
    expect(memoryLimits().heapLimitBytes).toBeGreaterThan(64 * MiB)
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
    const text = banner('http://127.0.0.1:4010', { ...configDefaults, log: 'silent' }, 'fixtures', 12, {
      mib: 256,
      from: '--max-memory',
    })
    expect(text).toContain(
      '  memory: budget 256 MiB (--max-memory): 64 MiB for the journal, 192 MiB for pets, rules and sessions (507 beyond)\n',
    )
  })
})
