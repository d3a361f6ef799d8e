import { getHeapStatistics } from 'node:v8'
import { type CgroupLimit, cgroupLimit } from './cgroup-limit.js'

const MiB = 2 ** 20

/** What the budget is derived from: the container's limit, where one is set, and V8's heap limit. */
export interface MemoryLimits {
  cgroup?: CgroupLimit
  heapLimitBytes: number
}

/** The memory budget the server runs with, and how it was arrived at (for the banner and the docs). */
export interface DerivedBudget {
  /** Whole MiB (the app's `maxMemory`). */
  mib: number
  /** The sentence saying where it comes from. */
  from: string
}

/** What the server itself needs of a limit: its code and caches, and room for the requests it is answering. */
export const ownNeedBytes = (limitBytes: number): number => Math.max(64, Math.ceil((limitBytes * 0.4) / MiB)) * MiB

/** The limits of this process: the cgroup's (v2, else v1) and `v8.getHeapStatistics().heap_size_limit`. */
export const memoryLimits = (root?: string): MemoryLimits => {
  const cgroup = cgroupLimit(root)
  return { ...(cgroup && { cgroup }), heapLimitBytes: getHeapStatistics().heap_size_limit }
}

const mibText = (bytes: number): string => `${Math.round(bytes / MiB)} MiB`

/**
 * The memory budget: `--max-memory` when given; else the smaller of the container's memory limit
 * and the V8 heap limit (`--max-old-space-size`, or Node's default), less what the server itself
 * needs ({@link ownNeedBytes}), at least 16 MiB.
 */
export const deriveBudget = (maxMemory: number | undefined, limits: MemoryLimits): DerivedBudget => {
  if (maxMemory !== undefined) return { mib: maxMemory, from: '--max-memory' }
  const { cgroup, heapLimitBytes } = limits
  const byCgroup = cgroup !== undefined && cgroup.bytes < heapLimitBytes
  const limit = byCgroup ? cgroup.bytes : heapLimitBytes
  const need = ownNeedBytes(limit)
  const mib = Math.max(16, Math.floor((limit - need) / MiB))
  const what = byCgroup ? `the container's memory limit (${cgroup.file})` : 'the V8 heap limit'
  return { mib, from: `${what}, ${mibText(limit)}, less ${mibText(need)} the server needs` }
}
