import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LocalShares, heldRefusal } from '../../../src/core/tenants/local-shares.js'
import { Tenancy } from '../../../src/core/tenants/tenancy.js'
import type { Tenant } from '../../../src/core/tenants/tenant.js'

const tenant = (name: string, held: number, streams: number): Tenant => ({
  name,
  sessions: [`${name}-*`],
  apiKeys: [],
  adminTokens: [],
  quota: { sessions: 1, memoryMiB: 1, journalMiB: 1, streams, held },
})
const a = tenant('team-a', 5, 2)
const b = tenant('team-b', 3, 2)
const tenancy = new Tenancy([a, b])

describe('LocalShares: a pool of one process shared out by tenant', () => {
  it.each([
    ['held', 'team-a-1', 5],
    ['held', 'team-b-x', 3],
    ['held', 'default', 1000 - 5 - 3],
    ['held', undefined, 1000 - 5 - 3],
    ['streams', 'team-a-1', 2],
    ['streams', 'shared', 100 - 4],
  ] as const)('%s: the session %s may use %i at once', (pool, session, limit) => {
    const shares = new LocalShares(tenancy, pool, pool === 'held' ? 1000 : 100)
    const owner = shares.ownerOf(session)
    expect(shares.limit(owner)).toBe(limit)
    const taken = Array.from({ length: limit }, () => shares.take(owner))
    expect(taken.every((release) => release !== undefined)).toBe(true)
    expect(shares.take(owner)).toBeUndefined()
    taken[0]!()
    taken[0]!()
    expect(shares.used(owner)).toBe(limit - 1)
  })

  it('without tenants, every session shares the whole pool', () => {
    const shares = new LocalShares(new Tenancy(), 'held', 1000)
    expect(shares.limit(shares.ownerOf('team-a-1'))).toBe(1000)
  })

  it('whatever the others take and give back, a tenant within its quota is never refused (property)', () => {
    const who = fc.constantFrom<Tenant | undefined>(a, b, undefined)
    fc.assert(
      fc.property(fc.array(fc.tuple(who, fc.boolean()), { maxLength: 300 }), (steps) => {
        const shares = new LocalShares(tenancy, 'held', 20)
        const held = new Map<Tenant | undefined, (() => void)[]>()
        for (const [owner, take] of steps) {
          const mine = held.get(owner) ?? []
          held.set(owner, mine)
          if (take) {
            const release = shares.take(owner)
            // Refused exactly when at its own limit: what the others hold never matters.
            expect(release === undefined).toBe(mine.length >= shares.limit(owner))
            if (release) mine.push(release)
          } else mine.pop()?.()
          expect(shares.used(owner)).toBe(mine.length)
        }
        expect(shares.usedTotal).toBeLessThanOrEqual(20)
      }),
    )
  })

  it('the refusal of a held request: 429 quota_exceeded, Retry-After: 1, the tenant named and its use', () => {
    const shares = new LocalShares(tenancy, 'held', 1000)
    for (let i = 0; i < 3; i++) shares.take(b)
    const refusal = heldRefusal(b, shares)
    expect(refusal.status).toBe(429)
    expect(refusal.headers).toEqual({ 'Retry-After': '1' })
    expect(refusal.body).toEqual({
      code: 'quota_exceeded',
      status: 429,
      message:
        'Tenant team-b holds 3 requests (hang, drip, journal waits), its quota (quota.held); this request was not held. Retry when one ends, or end one by closing its connection.',
    })
  })
})
