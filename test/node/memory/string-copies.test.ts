import { describe, expect, it } from 'vitest'
import { distUrl, heapPrelude, runHeapChild } from '../../helpers/heap-child.js'

// Each case keeps a short part of many long strings: what stays alive must be the short parts only.
describe('what is kept of long strings is a copy (heap measured in a child process, 160 MiB cap)', () => {
  it('deprecation report: 10 sessions × 1,000 distinct 14 KB User-Agents stay within 32 MiB (256 characters each)', () => {
    const { grownMiB, kept } = runHeapChild<{ grownMiB: number; kept: number }>(`
      import { DeprecationLog } from '${distUrl}core/deprecation/deprecation-log.js'
      ${heapPrelude}
      const op = [{ id: 'getPet', deprecated: true }]
      const before = heapMiB()
      const logs = []
      for (let s = 0; s < 10; s++) {
        const log = new DeprecationLog(op)
        for (let i = 0; i < 1000; i++) log.record('getPet', { authorization: null, userAgent: fresh(s + ':' + i + ':', 14 * 1024) }, 0)
        logs.push(log)
      }
      const grownMiB = heapMiB() - before
      const kept = logs[0].report()[0].clients[0].userAgent.length
      console.log(JSON.stringify({ grownMiB, kept }))
    `)
    expect(kept).toBe(256)
    // Uncut, the 10,000 User-Agents are 140 MiB (and exceed the heap cap).
    expect(grownMiB).toBeLessThan(32)
  })

  it('deprecation report: 1,000 distinct 14 KB Authorization headers of one word keep a short scheme', () => {
    const { grownMiB } = runHeapChild<{ grownMiB: number }>(`
      import { DeprecationLog } from '${distUrl}core/deprecation/deprecation-log.js'
      import { redactAuthorization } from '${distUrl}core/http/request/authorization.js'
      ${heapPrelude}
      const log = new DeprecationLog([{ id: 'getPet', deprecated: true }])
      const before = heapMiB()
      for (let i = 0; i < 1000; i++) log.record('getPet', { authorization: redactAuthorization(fresh(i + ':', 14 * 1024)), userAgent: null }, 0)
      console.log(JSON.stringify({ grownMiB: heapMiB() - before }))
    `)
    expect(grownMiB).toBeLessThan(4)
  })

  it('rate limiter: 1,000 tracked 64 KB tokens cost under 4 MiB (a prefix and a hash each)', () => {
    const { grownMiB } = runHeapChild<{ grownMiB: number }>(`
      import { RateLimiter, partitionKey } from '${distUrl}core/rate-limit/rate-limit.js'
      ${heapPrelude}
      const limiter = new RateLimiter({ limit: 10, windowSeconds: 60 })
      const before = heapMiB()
      for (let i = 0; i < 1000; i++) limiter.take(partitionKey(fresh(i + ':', 64 * 1024)), 0)
      console.log(JSON.stringify({ grownMiB: heapMiB() - before, size: limiter.size }))
    `)
    expect(grownMiB).toBeLessThan(4)
  })

  it('journal: 1,000 bodies of 100 KB cut to 4,096 characters stay within 16 MiB', () => {
    const { grownMiB } = runHeapChild<{ grownMiB: number }>(
      `
      import { keepBody } from '${distUrl}core/journal/journal.js'
      ${heapPrelude}
      const before = heapMiB()
      const kept = []
      for (let i = 0; i < 1000; i++) kept.push(keepBody(fresh(i + ':', 100_000), false))
      console.log(JSON.stringify({ grownMiB: heapMiB() - before }))
    `,
      512,
    )
    expect(grownMiB).toBeLessThan(16)
  })
})
