import { describe, expect, it } from 'vitest'
import {
  budgetRedisHolds,
  clampToRedis,
  redisFootprintRatio,
  redisReserveBytes,
} from '../../../src/node/memory/redis-clamp.js'
import type { DerivedBudget } from '../../../src/node/memory/memory-budget-option.js'

const MiB = 2 ** 20
const given: DerivedBudget = { mib: 512, from: '--max-memory', bounded: true }

// Issue 41 §2: the budget on Redis never exceeds what its maxmemory holds at the measured footprint.
describe("the budget clamped to Redis' maxmemory", () => {
  it('holds (maxmemory − the reserve) / the ratio, whole MiB, at least 1', () => {
    expect(redisFootprintRatio).toBe(2.2)
    expect(redisReserveBytes).toBe(8 * MiB)
    expect(budgetRedisHolds(384 * MiB)).toBe(170)
    expect(budgetRedisHolds(32 * MiB)).toBe(10)
    expect(budgetRedisHolds(8 * MiB)).toBe(1)
    expect(budgetRedisHolds(1 * MiB)).toBe(1)
  })

  it.each([
    ['no store read (memory)', undefined],
    ['a Redis with no maxmemory', { bytes: 0 }],
    ['a Redis that holds it', { bytes: 2 * 1024 * MiB }],
  ])('leaves the budget as it is, with no line: %s', (_, maxmemory) => {
    expect(clampToRedis(given, maxmemory)).toEqual({ memory: given, banner: [] })
  })

  it('clamps a larger budget, derived or given, and says so in one banner line', () => {
    const derived: DerivedBudget = {
      mib: 466,
      from: "the container's memory limit, 512 MiB (/sys/fs/cgroup/memory.max)",
      bounded: true,
    }
    expect(clampToRedis(derived, { bytes: 384 * MiB })).toEqual({
      memory: { mib: 170, from: "clamped to Redis' maxmemory 384 MiB", bounded: true },
      banner: [
        "  memory: budget clamped from 466 MiB (the container's memory limit, 512 MiB (/sys/fs/cgroup/memory.max)) to 170 MiB: Redis' maxmemory 384 MiB holds no more at 2.2 bytes of Redis per byte counted, 8 MiB kept for Redis' own (docs/scale-out.md)",
      ],
    })
    expect(clampToRedis(given, { bytes: 32 * MiB }).memory.mib).toBe(10)
    // A budget just at what Redis holds stays.
    expect(clampToRedis({ ...given, mib: 170 }, { bytes: 384 * MiB }).banner).toEqual([])
  })

  it('keeps the budget when CONFIG is refused, and says so with the rule to size Redis by', () => {
    const refused = "ERR unknown command 'CONFIG', with args beginning with: 'GET' 'maxmemory' "
    expect(clampToRedis(given, { refused })).toEqual({
      memory: given,
      banner: [
        `  memory: Redis' maxmemory is unknown (CONFIG GET maxmemory: ${refused}): the budget is not checked against it; give Redis at least 2.2 × the budget + 8 MiB (docs/scale-out.md)`,
      ],
    })
  })
})
