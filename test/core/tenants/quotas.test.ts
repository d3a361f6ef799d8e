import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { contractApp } from '../../helpers/contract.js'
import { bearer } from '../../helpers/auth.js'
import type { Tenant } from '../../../src/core/tenants/tenant.js'
import type { BudgetReport } from '../../../src/core/budget/memory-budget.js'
import type { StateSizes } from '../../../src/core/observe/observer.js'

// Issue 39 §2 on the memory store: each tenant's guaranteed shares of sessions, state memory and
// journal bytes, with team A hostile and team B measured. The example tenants file of the issue.
const example = JSON.parse(
  readFileSync(new URL('../../../examples/tenants/tenants.json', import.meta.url), 'utf8'),
) as {
  tenants: Tenant[]
}
const tenants = example.tenants

type Request = ReturnType<typeof contractApp>['request']
interface ErrorBody {
  code: string
  message: string
  status: number
}

// Credentials as the tenants file gives them: a /v1 key and an admin token of each team.
const keyOf = { 'team-a': 'key-a-1', 'team-b': 'key-b-1' } as const
const adminOf = { 'team-a': 'adm-a-1', 'team-b': 'adm-b-1' } as const
const teamOf = (session: string): 'team-a' | 'team-b' => (session.startsWith('team-a') ? 'team-a' : 'team-b')
const v1 = (session: string, extra: Record<string, string> = {}) => ({
  'X-Mock-Session': session,
  ...bearer(session.startsWith('team-') ? keyOf[teamOf(session)] : 't'),
  ...extra,
})
const admin = (session: string, extra: Record<string, string> = {}) => ({
  'X-Mock-Session': session,
  ...bearer(session.startsWith('team-') ? adminOf[teamOf(session)] : 'root-1'),
  ...extra,
})
// A /v1 key of no tenant and an operator's token: with tenants, the accepted /v1 keys are --api-key and the
// tenants' (issue 39 §1), and tenants' admin tokens close the control plane to requests without a token.
const keys = { apiKeys: ['t'], adminToken: 'root-1' }
const json = (body: unknown, method = 'POST') => ({ method, body: JSON.stringify(body) })

const createPet = (request: Request, session: string, name = 'Rex') =>
  request('/v1/pets', {
    ...json({ name, categoryId: 1 }),
    headers: v1(session, { 'Content-Type': 'application/json' }),
  })
const listPets = (request: Request, session: string) => request('/v1/pets?limit=1', { headers: v1(session) })
const addRule = (request: Request, session: string) =>
  request('/__admin/faults', {
    ...json({ operation: 'getPet', status: 500 }),
    headers: admin(session, { 'Content-Type': 'application/json' }),
  })
const seed = (request: Request, session: string, count: number) =>
  request('/__admin/seed', { ...json({ count }), headers: admin(session, { 'Content-Type': 'application/json' }) })
const health = async (request: Request) =>
  ((await (await request('/__admin/health')).json()) as { memory: BudgetReport }).memory
const tenantUse = async (request: Request, tenant: string) =>
  (await health(request)).tenants!.find((t) => t.tenant === tenant)!
const sessionNames = async (request: Request) =>
  (
    (await (await request('/__admin/sessions', { headers: bearer('root-1') })).json()) as {
      sessions: { name: string }[]
    }
  ).sessions.map((s) => s.name)
const requests = async (request: Request, session: string) =>
  (await (await request('/__admin/requests?limit=1000', { headers: admin(session) })).json()) as {
    requests: { id: number }[]
    dropped: number
  }
const errorOf = async (res: Response, status: number): Promise<ErrorBody> => {
  expect(res.status).toBe(status)
  return (await res.json()) as ErrorBody
}

const quotaMessage = (tenant: string, sessions: number) =>
  `Tenant ${tenant} has ${sessions} sessions, its quota (quota.sessions); no new session was created. Free one with DELETE /__admin/sessions/{name} and a ${tenant} admin token, or wait until one is idle past --session-ttl.`

describe('sessions: a quota per tenant (issue 39 §2)', () => {
  it('refuses team A beyond quota.sessions with 429 quota_exceeded, creating nothing; team B and the sessions of no tenant are not refused', async () => {
    const { request } = contractApp({ ...keys, tenants, maxMemory: 64, maxSessions: 10 })
    expect((await listPets(request, 'team-a-1')).status).toBe(200)
    expect((await listPets(request, 'team-a-2')).status).toBe(200)
    // Team A fills its quota, by /v1 and by the admin API alike: each refusal is the same, and makes nothing.
    for (const attempt of [() => listPets(request, 'team-a-3'), () => addRule(request, 'team-a-4')]) {
      const res = await attempt()
      expect(res.headers.get('X-Mock-Session-Created')).toBeNull()
      expect(await errorOf(res, 429)).toEqual({
        code: 'quota_exceeded',
        message: quotaMessage('team-a', 2),
        status: 429,
      })
    }
    expect(await sessionNames(request)).not.toContain('team-a-3')
    expect(await sessionNames(request)).not.toContain('team-a-4')
    // Team B: its five sessions, its writes and rules.
    for (let i = 1; i <= 5; i++) {
      expect((await createPet(request, `team-b-${i}`)).status).toBe(201)
      expect((await addRule(request, `team-b-${i}`)).status).toBe(201)
    }
    // Its sixth is its own quota's refusal, naming it only.
    const sixth = await errorOf(await listPets(request, 'team-b-6'), 429)
    expect(sixth.message).toBe(quotaMessage('team-b', 5))
    expect(sixth.message).not.toContain('team-a')
    // The sessions of no tenant share what no tenant reserved: 10 - 2 - 5 = 3.
    for (const name of ['ci-1', 'ci-2', 'ci-3']) expect((await createPet(request, name)).status).toBe(201)
    const full = await errorOf(await listPets(request, 'ci-4'), 503)
    expect(full.code).toBe('too_many_sessions')
    expect(full.message).toMatch(/^3 sessions exist, the most this server keeps \(--max-sessions 3\)/)
    // The tenant frees its own: a deleted session makes room for a new one.
    expect((await request('/__admin/sessions/team-a-1', { method: 'DELETE', headers: admin('team-a-1') })).status).toBe(
      204,
    )
    expect((await listPets(request, 'team-a-3')).status).toBe(200)
    const use = await tenantUse(request, 'team-a')
    expect(use.sessions).toEqual({ used: 2, limit: 2 })
  })

  it("keeps today's cap and message without tenants", async () => {
    const { request } = contractApp({ maxSessions: 2 })
    expect((await listPets(request, 'x1')).status).toBe(200)
    expect((await listPets(request, 'x2')).status).toBe(200)
    expect(await errorOf(await listPets(request, 'x3'), 503)).toEqual({
      code: 'too_many_sessions',
      message:
        '2 sessions exist, the most this server keeps (--max-sessions 2); no new session was created. Free one with DELETE /__admin/sessions/{name}, or wait until one is idle past --session-ttl.',
      status: 503,
    })
    expect((await health(request)).tenants).toBeUndefined()
  })
})

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 2 : 1)

/** Seeds `session` with as many pets as its tenant's share takes (a binary search of refused seeds, which change nothing). */
const fillBySeed = async (request: Request, session: string): Promise<number> => {
  let [fits, refused] = [0, 100_000]
  while (refused - fits > 1) {
    const count = Math.floor((fits + refused) / 2)
    const res = await seed(request, session, count)
    if (res.status === 204) fits = count
    else {
      expect(res.status).toBe(507)
      refused = count
    }
  }
  if (fits > 0) expect((await seed(request, session, fits)).status).toBe(204)
  return fits
}

describe('state memory: a quota per tenant (issue 39 §2)', () => {
  it("refuses team A's writes beyond quota.memoryMiB with 507 naming its quota, use, what is free and how it frees it; team B is not refused; nothing changed", async () => {
    const { request } = contractApp({ ...keys, tenants, maxMemory: 64 })
    expect((await listPets(request, 'team-a-2')).status).toBe(200)
    const seeded = await fillBySeed(request, 'team-a-1')
    expect(seeded).toBeGreaterThan(10_000)
    // What is left is less than a seeded pet: a few small creates fill it.
    let refusal: Response | undefined
    for (let i = 0; i < 100 && !refusal; i++) {
      const res = await createPet(request, 'team-a-1', 'x'.repeat(64))
      if (res.status !== 201) refusal = res
    }
    const before = await tenantUse(request, 'team-a')
    const body = await errorOf(refusal!, 507)
    expect(body.code).toBe('insufficient_storage')
    const used = before.memory.usedBytes
    const words = body.message.match(
      /^Tenant team-a uses ([\d.]+) MiB of its memory quota of 8\.0 MiB \(quota\.memoryMiB\): pets need ([\d.]+) MiB more and ([\d.]+) MiB is free; pets hold the most \(([\d.]+) MiB\)\. Nothing was changed\. To free it, reset sessions \(POST \/__admin\/reset\) or delete them \(DELETE \/__admin\/sessions\/\{name\}\), with a team-a admin token; or ask the operator for a larger quota\.memoryMiB\.$/,
    )
    expect(words, body.message).not.toBeNull()
    expect(words!.slice(1)).toEqual([mib(used), mib(136 + 128), mib(8 * 2 ** 20 - used), words![4]])
    expect(Number(words![4])).toBeGreaterThan(7.8)
    expect(body.message).not.toContain('team-b')
    // Every write of team A is refused the same way, in any of its sessions, and changes nothing.
    const state = async () => [
      await (await request('/__admin/state', { headers: admin('team-a-2') })).text(),
      await (await request('/__admin/faults', { headers: admin('team-a-2') })).text(),
    ]
    const before2 = await state()
    expect((await createPet(request, 'team-a-2', 'y'.repeat(64))).status).toBe(507)
    expect((await addRule(request, 'team-a-2')).status).toBe(507)
    expect((await seed(request, 'team-a-2', 100)).status).toBe(507)
    expect(await state()).toEqual(before2)
    expect((await tenantUse(request, 'team-a')).memory.usedBytes).toBe(used)
    // Team B, and the sessions of no tenant: their writes and rules are taken.
    for (const session of ['team-b-1', 'team-b-2', 'default', 'ci-1']) {
      expect((await createPet(request, session, 'z'.repeat(1000))).status).toBe(201)
      expect((await addRule(request, session)).status).toBe(201)
      expect((await seed(request, session, 1000)).status).toBe(204)
    }
    // The tenant frees its share itself, with its own admin token: a reset of its session.
    expect((await request('/__admin/reset', { method: 'POST', headers: admin('team-a-1') })).status).toBe(204)
    expect((await createPet(request, 'team-a-1', 'x'.repeat(64))).status).toBe(201)
  })

  it("keeps today's 507 message without tenants, and with tenants names the share of the sessions of no tenant", async () => {
    const plain = contractApp({ maxMemory: 1 })
    const today = await errorOf(await seed(plain.request, 's', 10_000), 507)
    expect(today.message).toMatch(/^The memory budget \(1\.0 MiB, --max-memory\) is full: pets need /)
    const { request } = contractApp({ ...keys, tenants, maxMemory: 25 })
    const unreserved = await errorOf(await seed(request, 's', 10_000), 507)
    expect(unreserved.message).toMatch(
      /^The memory budget of the sessions of no tenant \(1\.0 MiB: --max-memory less the tenants' quotas, 24\.0 MiB\) is full: pets need [\d.]+ MiB more and [\d.]+ MiB is free; .*; or start with a larger --max-memory\.$/,
    )
    expect(unreserved.message).not.toMatch(/team-/)
  })
})

// One journal entry of about 9 KB: a 400 whose body the journal keeps (cut at 4,096 characters).
const heavy = (request: Request, session: string) =>
  request('/v1/pets', {
    ...json({ junk: 'j'.repeat(5000) }),
    headers: v1(session, { 'Content-Type': 'application/json' }),
  })

describe('journal bytes: a quota per tenant (issue 39 §2)', () => {
  it("drops team A's own oldest entries beyond quota.journalMiB; team B's journal loses nothing", async () => {
    // 32 MiB: the tenants reserve 24, the sessions of no tenant keep 8 (2 of them the journal's).
    const { request } = contractApp({ ...keys, tenants, maxMemory: 32, journalSize: 5000 })
    for (let i = 0; i < 20; i++) expect((await createPet(request, 'team-b-1', `b${i}`)).status).toBe(201)
    for (let i = 0; i < 5; i++) expect((await listPets(request, 'ci-1')).status).toBe(200)
    // Team A: 1,200 heavy entries, 10 MiB, more than the whole journal share of the budget without tenants,
    // in a session its first request made (a refused request makes none: refused-writes.test.ts).
    expect((await listPets(request, 'team-a-1')).status).toBe(200)
    for (let i = 0; i < 1200; i++) expect((await heavy(request, 'team-a-1')).status).toBe(400)
    const b = await requests(request, 'team-b-1')
    expect(b.requests).toHaveLength(20)
    expect(b.dropped).toBe(0)
    const ci = await requests(request, 'ci-1')
    expect(ci.requests).toHaveLength(5)
    expect(ci.dropped).toBe(0)
    const a = await requests(request, 'team-a-1')
    expect(a.dropped).toBeGreaterThan(0)
    expect(a.requests.length + a.dropped).toBe(1201)
    const use = await tenantUse(request, 'team-a')
    expect(use.journal.limitBytes).toBe(4 * 2 ** 20)
    expect(use.journal.usedBytes).toBeLessThanOrEqual(4 * 2 ** 20)
    expect(use.journal.usedBytes).toBeGreaterThan(3.9 * 2 ** 20)
    expect(use.journal.entries).toBe(a.requests.length)
  })
})

describe("the budget's use ratio is the highest of its shares (issue 39 §3)", () => {
  it('reads 1 when the state share refuses writes, though the journal share is empty (not 0.75)', async () => {
    // As in the issue: seeds fill the state share; the journal (of /v1 requests) stays empty.
    const { request } = contractApp({ maxMemory: 1 })
    await fillBySeed(request, 's')
    expect((await seed(request, 's2', 100)).status).toBe(507)
    const memory = await health(request)
    expect(memory.usedBytes / memory.budgetBytes!).toBeLessThan(0.8)
    expect(memory.usedRatio).toBeGreaterThan(0.99)
  })

  it("reads a tenant's share: team A at its quota is near 1 while the budget is mostly free; each share reported", async () => {
    const { request } = contractApp({ ...keys, tenants, maxMemory: 64 })
    expect((await health(request)).usedRatio).toBeLessThan(0.01)
    await fillBySeed(request, 'team-a-1')
    const memory = await health(request)
    expect(memory.usedBytes / memory.budgetBytes!).toBeLessThan(0.2)
    expect(memory.usedRatio).toBeGreaterThan(0.99)
    expect(memory.tenants!.map((t) => t.tenant)).toEqual(['team-a', 'team-b'])
    expect(memory.tenants![1]).toEqual({
      tenant: 'team-b',
      sessions: { used: 0, limit: 5 },
      memory: { usedBytes: 0, limitBytes: 8 * 2 ** 20 },
      journal: { usedBytes: 0, limitBytes: 4 * 2 ** 20, entries: 0 },
    })
    // The share of no tenant: 64 - 24 = 40 MiB, a quarter of it the journal's.
    expect(memory.state.shareBytes).toBe(30 * 2 ** 20)
    expect(memory.journal.shareBytes).toBe(10 * 2 ** 20)
  })
})

describe("each tenant's use against its quotas, as the metrics read it (issue 39 §3)", () => {
  it("hands the metrics host every tenant's sessions, memory and journal, used and limit, by name", async () => {
    const seen: StateSizes[] = []
    const { request } = contractApp({
      ...keys,
      tenants,
      maxMemory: 64,
      observe: {
        metrics: async (scope) => {
          seen.push(await scope.sizes())
          return { contentType: 'text/plain', body: '' }
        },
      },
    })
    expect((await createPet(request, 'team-a-1', 'Rex')).status).toBe(201)
    await request('/__admin/metrics', { headers: bearer('root-1') })
    const [a, b] = seen[0]!.memory!.tenants!
    expect(a!.tenant).toBe('team-a')
    expect(a!.sessions).toEqual({ used: 1, limit: 2 })
    expect(a!.memory.usedBytes).toBe(16 * 1024 + 136 + 6)
    expect(a!.journal.entries).toBe(1)
    expect(b!.tenant).toBe('team-b')
    expect(seen[0]!.memory!.usedRatio).toBeCloseTo((16 * 1024 + 136 + 6) / (8 * 2 ** 20))
  })
})

// Small quotas, so that team A reaches and passes each in a few steps.
const small: Tenant[] = [
  { ...tenants[0]!, quota: { sessions: 2, memoryMiB: 1, journalMiB: 1, streams: 2, held: 5 } },
  { ...tenants[1]!, quota: { sessions: 3, memoryMiB: 1, journalMiB: 1, streams: 2, held: 5 } },
]

type Hostile =
  | { kind: 'session'; n: number }
  | { kind: 'pets'; n: number; size: number }
  | { kind: 'seed'; n: number; count: number }
  | { kind: 'rules'; n: number }
  | { kind: 'journal'; n: number; times: number }
  | { kind: 'delete'; n: number }

const hostile: fc.Arbitrary<Hostile> = fc.oneof(
  fc.record({ kind: fc.constant('session' as const), n: fc.nat(5) }),
  fc.record({ kind: fc.constant('pets' as const), n: fc.nat(5), size: fc.integer({ min: 1, max: 4000 }) }),
  fc.record({ kind: fc.constant('seed' as const), n: fc.nat(5), count: fc.integer({ min: 5000, max: 20_000 }) }),
  fc.record({ kind: fc.constant('rules' as const), n: fc.nat(5) }),
  fc.record({ kind: fc.constant('journal' as const), n: fc.nat(5), times: fc.integer({ min: 50, max: 250 }) }),
  fc.record({ kind: fc.constant('delete' as const), n: fc.nat(5) }),
)

const actA = async (request: Request, step: Hostile): Promise<void> => {
  const session = `team-a-${step.n}`
  switch (step.kind) {
    case 'session':
      return void (await listPets(request, session))
    case 'pets':
      for (let i = 0; i < 20; i++) await createPet(request, session, 'a'.repeat(step.size))
      return
    case 'seed':
      return void (await seed(request, session, step.count))
    case 'rules':
      for (let i = 0; i < 20; i++) await addRule(request, session)
      return
    case 'journal':
      for (let i = 0; i < step.times; i++) await heavy(request, session)
      return
    case 'delete':
      return void (await request(`/__admin/sessions/${session}`, { method: 'DELETE', headers: admin(session) }))
  }
}

describe('fairness (issue 39 §2): while team B stays within its quotas, nothing team A does refuses B or loses its entries', () => {
  it('holds for any sequence of team A steps up to and beyond its quotas, interleaved with B', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hostile, { minLength: 4, maxLength: 12 }), async (steps) => {
        const { request } = contractApp({ ...keys, tenants: small, maxMemory: 8, maxSessions: 10, journalSize: 5000 })
        let sent = 0
        for (const [i, step] of steps.entries()) {
          await actA(request, step)
          // Team B: a write and a rule in one of its three sessions, and a read: within 1 MiB and 3 sessions.
          const session = `team-b-${i % 3}`
          const created = await createPet(request, session, `b${i}`)
          expect(created.status).toBe(201)
          expect((await listPets(request, session)).status).toBe(200)
          if (i < 3) expect((await addRule(request, session)).status).toBe(201)
          sent += 2
        }
        let kept = 0
        for (let n = 0; n < Math.min(3, steps.length); n++) {
          const journal = await requests(request, `team-b-${n}`)
          expect(journal.dropped).toBe(0)
          kept += journal.requests.length
        }
        expect(kept).toBe(sent)
      }),
      { numRuns: 15 },
    )
  })
})
