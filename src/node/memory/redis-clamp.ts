import type { DerivedBudget } from './memory-budget-option.js'

const MiB = 2 ** 20

/**
 * Bytes of Redis' `used_memory` per byte the memory budget counts, at most: pets seeded took 2.05–2.15
 * (the state's share), journal entries 0.43 and sessions 0.27 (tools/bench/redis-footprint.ts,
 * docs/scale-out.md). The largest, rounded up, so that a budget full of pets fits too.
 */
export const redisFootprintRatio = 2.2

/** Redis' own (an empty one uses about 1 MiB), the start template, the fleet's keys and connections: kept out of the budget. */
export const redisReserveBytes = 8 * MiB

/** Redis' `maxmemory` as read at start (`CONFIG GET maxmemory`): bytes (0: none), or why it could not be read. */
export type RedisMaxmemory = { bytes: number } | { refused: string }

/** The largest budget, whole MiB, whose footprint fits in `maxmemoryBytes` (at least 1). */
export const budgetRedisHolds = (maxmemoryBytes: number): number =>
  Math.max(1, Math.floor((maxmemoryBytes - redisReserveBytes) / redisFootprintRatio / MiB))

const mib = (bytes: number): string => `${Math.round(bytes / MiB)} MiB`

/**
 * The budget a fleet on Redis runs with (issue 41 §2): never more than what Redis' `maxmemory` holds
 * at {@link redisFootprintRatio}, so that the budget, not Redis, refuses first (a 507 naming the
 * budget, with the store writable). A larger one, derived or given by `--max-memory`, is clamped, with
 * a banner line; a Redis with no `maxmemory` leaves it as it is; one whose `CONFIG` is refused
 * (renamed or not allowed, as managed Redis does) leaves it too, and the banner says so.
 */
export const clampToRedis = (
  memory: DerivedBudget,
  maxmemory: RedisMaxmemory | undefined,
): { memory: DerivedBudget; banner: string[] } => {
  if (maxmemory === undefined) return { memory, banner: [] }
  if ('refused' in maxmemory) {
    return {
      memory,
      banner: [
        `  memory: Redis' maxmemory is unknown (CONFIG GET maxmemory: ${maxmemory.refused}): the budget is not checked against it; give Redis at least ${redisFootprintRatio} × the budget + ${mib(redisReserveBytes)} (docs/scale-out.md)`,
      ],
    }
  }
  if (maxmemory.bytes === 0) return { memory, banner: [] }
  const holds = budgetRedisHolds(maxmemory.bytes)
  if (memory.mib <= holds) return { memory, banner: [] }
  return {
    memory: { mib: holds, from: `clamped to Redis' maxmemory ${mib(maxmemory.bytes)}`, bounded: true },
    banner: [
      `  memory: budget clamped from ${memory.mib} MiB (${memory.from}) to ${holds} MiB: Redis' maxmemory ${mib(maxmemory.bytes)} holds no more at ${redisFootprintRatio} bytes of Redis per byte counted, ${mib(redisReserveBytes)} kept for Redis' own (docs/scale-out.md)`,
    ],
  }
}
