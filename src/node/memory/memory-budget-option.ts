import { getHeapStatistics } from 'node:v8'
import { type CgroupLimit, cgroupLimit } from './cgroup-limit.js'
import { budgetForLimit, budgetForOldSpace, type HeapFlags, heapFlagsOf } from './heap-flags.js'

const MiB = 2 ** 20

/** What the budget is derived from: the container's limit, where one is set, and V8's heap. */
export interface MemoryLimits {
  cgroup?: CgroupLimit
  /** The heap flags the process was started with. */
  flags: HeapFlags
  /** `v8.getHeapStatistics().heap_size_limit`: Node's default heap when no flag sets it. */
  heapLimitBytes: number
}

/** The memory budget the server runs with, and how it was arrived at (for the banner and the docs). */
export interface DerivedBudget {
  /** Whole MiB (the app's `maxMemory`). */
  mib: number
  /** The sentence saying where it comes from. */
  from: string
  /** Whether something other than Node's default heap bounds it (then the heap is sized for it: heap-flags.ts). */
  bounded: boolean
}

/** The limits of this process: the cgroup's (v2, else v1), its heap flags, and V8's heap limit. */
export const memoryLimits = (execArgv: readonly string[], nodeOptions?: string, root?: string): MemoryLimits => {
  const cgroup = cgroupLimit(root)
  return {
    ...(cgroup && { cgroup }),
    flags: heapFlagsOf(execArgv, nodeOptions),
    heapLimitBytes: getHeapStatistics().heap_size_limit,
  }
}

const mibText = (bytes: number): string => `${Math.round(bytes / MiB)} MiB`

/**
 * The memory budget: `--max-memory` when given; else the smaller of what the container's memory
 * limit and `--max-old-space-size` allow (heap-flags.ts: the old space holds 7/8 of the budget,
 * and the process needs 104 MiB besides); else what Node's default heap allows. At least 16 MiB.
 */
export const deriveBudget = (maxMemory: number | undefined, limits: MemoryLimits): DerivedBudget => {
  if (maxMemory !== undefined) return { mib: maxMemory, from: '--max-memory', bounded: true }
  const { cgroup, flags, heapLimitBytes } = limits
  const candidates: { mib: number; from: string }[] = []
  if (cgroup)
    candidates.push({
      mib: budgetForLimit(cgroup.bytes),
      from: `the container's memory limit, ${mibText(cgroup.bytes)} (${cgroup.file})`,
    })
  if (flags.oldSpaceMiB !== undefined) {
    candidates.push({ mib: budgetForOldSpace(flags.oldSpaceMiB), from: `--max-old-space-size=${flags.oldSpaceMiB}` })
  }
  const least = candidates.sort((a, b) => a.mib - b.mib)[0]
  if (least) return { ...least, bounded: true }
  return {
    mib: budgetForOldSpace(Math.floor(heapLimitBytes / MiB)),
    from: `Node's default heap limit, ${mibText(heapLimitBytes)}`,
    bounded: false,
  }
}
