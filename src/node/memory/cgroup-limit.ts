import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** A container's memory limit, and the file it was read from. */
export interface CgroupLimit {
  bytes: number
  file: string
}

const read = (file: string): string | undefined => {
  try {
    return readFileSync(file, 'utf8').trim()
  } catch {
    return undefined
  }
}

// cgroup v1 writes "no limit" as a huge number (PAGE_COUNTER_MAX pages), v2 as "max".
const noLimit = 2 ** 60

const limitIn = (file: string): CgroupLimit | undefined => {
  const text = read(file)
  if (text === undefined || !/^[0-9]+$/.test(text)) return undefined
  const bytes = Number(text)
  return bytes > 0 && bytes < noLimit ? { bytes, file } : undefined
}

/** The paths of this process's cgroups, from /proc/self/cgroup: v2's (`0::/path`) and v1's memory one. */
const ownPaths = (root: string): { v2?: string; v1?: string } => {
  const paths: { v2?: string; v1?: string } = {}
  for (const line of (read(join(root, 'proc/self/cgroup')) ?? '').split('\n')) {
    const [, controllers, path] = /^[0-9]+:([^:]*):(.*)$/.exec(line) ?? []
    if (path === undefined) continue
    if (controllers === '') paths.v2 = path
    else if (controllers!.split(',').includes('memory')) paths.v1 = path
  }
  return paths
}

/**
 * The memory limit of the container the process runs in: cgroup v2's `memory.max`, else v1's
 * `memory.limit_in_bytes`, of the process's own cgroup, else of the root of the hierarchy (what a
 * container sees of its own cgroup); undefined when none is set. `root`: where `/` is (tests).
 */
export const cgroupLimit = (root = '/'): CgroupLimit | undefined => {
  const { v2, v1 } = ownPaths(root)
  const cgroup = join(root, 'sys/fs/cgroup')
  const candidates = [
    ...(v2 !== undefined ? [join(cgroup, v2, 'memory.max')] : []),
    join(cgroup, 'memory.max'),
    ...(v1 !== undefined ? [join(cgroup, 'memory', v1, 'memory.limit_in_bytes')] : []),
    join(cgroup, 'memory', 'memory.limit_in_bytes'),
  ]
  for (const file of candidates) {
    const limit = limitIn(file)
    if (limit) return limit
  }
  return undefined
}
