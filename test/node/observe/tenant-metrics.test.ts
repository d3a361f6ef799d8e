import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { prepareMock, type AppOptions } from '../../../src/core/app.js'
import { checkTenants } from '../../../src/core/tenants/check-tenants.js'
import type { Tenant } from '../../../src/core/tenants/tenant.js'
import { hostMetrics } from '../../../src/node/observe/host-metrics.js'
import { createRegistry, metricNames } from '../../../src/node/observe/prometheus.js'
import { RequestCounts } from '../../../src/node/observe/request-counts.js'
import { refusalReasonOf, refusalReasons } from '../../../src/core/observe/refusal-reason.js'

// The example file (examples/tenants/tenants.json), started as it says: --admin-token root-1.
const exampleTenants = (): Tenant[] => {
  const tenants = checkTenants(
    JSON.parse(readFileSync(new URL('../../../examples/tenants/tenants.json', import.meta.url), 'utf8')),
  )
  if (typeof tenants === 'string') throw new Error(tenants)
  return tenants
}

/** The samples of an exposition text, `name{labels}` → value. */
const samplesOf = (text: string): Map<string, number> => {
  const samples = new Map<string, number>()
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue
    const at = line.lastIndexOf(' ')
    samples.set(line.slice(0, at), Number(line.slice(at + 1)))
  }
  return samples
}

/** The samples of one family whose labels include `tenant="<tenant>"`, `labels` → value. */
const ofTenant = (samples: Map<string, number>, family: string, tenant: string): Record<string, number> => {
  const found: Record<string, number> = {}
  for (const [series, value] of samples) {
    if (!series.startsWith(`${family}{`) || !series.includes(`tenant="${tenant}"`)) continue
    found[series.slice(family.length)] = value
  }
  return found
}

const started = (over: AppOptions = {}) => {
  const metrics = hostMetrics({ version: '0.0.0', store: 'memory' })
  const mock = prepareMock({
    tenants: exampleTenants(),
    // A key of no tenant, for the sessions of no tenant (a tenant's key may not reach them).
    apiKeys: ['k'],
    adminToken: 'root-1',
    observe: { requests: metrics.requests, metrics: metrics.metrics },
    ...over,
  })
  const app = mock.build()
  const request = (path: string, init: RequestInit & { key?: string } = {}) =>
    app.request(path, {
      ...init,
      // key '': no Authorization at all (the /v1 401 without --api-key: any well-formed bearer is accepted).
      headers: {
        ...(init.key !== '' && { Authorization: `Bearer ${init.key ?? 'key-a-1'}` }),
        ...(init.headers as Record<string, string>),
      },
    })
  const scrape = async () => {
    const res = await app.request('/__admin/metrics', { headers: { Authorization: 'Bearer root-1' } })
    expect(res.status).toBe(200)
    return samplesOf(await res.text())
  }
  return { mock, request, scrape }
}

const teamB = async (request: ReturnType<typeof started>['request']) => {
  for (const path of ['/sessions/team-b-1/v1/pets', '/sessions/team-b-1/v1/pets/1']) {
    expect((await request(path, { key: 'key-b-1' })).status).toBe(200)
  }
}

describe('metrics per tenant, with the example tenants file', () => {
  it("counts team A's refusals under tenant=team-a by reason, and leaves team B's counters as team B's own traffic made them", async () => {
    const { request, scrape } = started({ maxSessions: 8, maxMemory: 25 })
    await teamB(request)
    const before = await scrape()

    // 401: no key on /v1, a token that is none on the control plane.
    expect((await request('/sessions/team-a-1/v1/pets', { key: '' })).status).toBe(401)
    expect((await request('/sessions/team-a-1/__admin/reset', { method: 'POST', key: 'not-a-token' })).status).toBe(401)
    // The memory: seeds of 100,000 pets in team A's sessions, until one is beyond 25 MiB (or team A's quota.memoryMiB).
    let seeded: Response | undefined
    for (let i = 1; i <= 6 && seeded === undefined; i++) {
      const res = await request(`/sessions/team-a-${i}/__admin/seed`, {
        method: 'POST',
        key: 'root-1',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ count: 100_000 }),
      })
      if (res.status !== 204) seeded = res
    }
    expect(seeded!.status).toBe(507)
    const seedBody = (await seeded!.json()) as { code: string; message: string }
    const memoryReason = refusalReasonOf(507, seedBody.code, seedBody.message)
    expect(['memory_budget', 'memory_quota']).toContain(memoryReason)

    // The session cap (today's 503 too_many_sessions; with the sessions quota, 429 quota_exceeded).
    let capped: Response | undefined
    for (let i = 1; i <= 14 && capped === undefined; i++) {
      const res = await request(`/sessions/team-a-${i}/v1/pets`)
      if (res.status !== 200) capped = res
    }
    const capBody = (await capped!.json()) as { code: string; message: string }
    const capReason = refusalReasonOf(capped!.status, capBody.code, capBody.message)
    expect(capReason).toBe(capped!.status === 503 ? 'session_cap' : 'sessions_quota')
    const after = await scrape()
    const refusals = ofTenant(after, metricNames.refusals, 'team-a')
    const expected: Record<string, number> = {
      [`{tenant="team-a",reason="unauthorized"}`]: 2,
      [`{tenant="team-a",reason="${capReason}"}`]: 1,
      [`{tenant="team-a",reason="${memoryReason}"}`]: 1,
    }
    expect(refusals).toEqual(expected)
    // Team B: its own two 200s, before and after, and no refusal.
    for (const family of [metricNames.refusals, metricNames.tenantRequests]) {
      expect(ofTenant(after, family, 'team-b'), family).toEqual(ofTenant(before, family, 'team-b'))
    }
    expect(ofTenant(after, metricNames.tenantRequests, 'team-b')).toEqual({ '{tenant="team-b",status="200"}': 2 })
    expect(ofTenant(after, metricNames.tenantRequests, 'team-a')).toMatchObject({
      '{tenant="team-a",status="401"}': 1,
      [`{tenant="team-a",status="${capped!.status}"}`]: 1,
    })
    // The refusals are still in the requests as before, by status.
    expect(
      after.get(`petstore_mock_requests_total{operation="listPets",status="${capped!.status}",shaped_by="contract"}`),
    ).toBe(1)
  })

  it('counts a refusal in a session of no tenant under tenant="" and a fault injected on purpose as none', async () => {
    const { request, scrape } = started()
    expect((await request('/sessions/other/v1/pets', { key: '' })).status).toBe(401)
    expect((await request('/sessions/team-a-1/v1/pets', { headers: { Prefer: 'code=503' } })).status).toBe(503)
    const samples = await scrape()
    expect(ofTenant(samples, metricNames.refusals, '')).toEqual({ '{tenant="",reason="unauthorized"}': 1 })
    expect(ofTenant(samples, metricNames.refusals, 'team-a')).toEqual({})
  })

  it('counts the sessions dropped after their idle time by tenant', async () => {
    const { mock, request, scrape } = started({ sessionTtl: 1 })
    expect((await request('/sessions/team-a-1/v1/pets')).status).toBe(200)
    expect((await request('/sessions/team-b-1/v1/pets', { key: 'key-b-1' })).status).toBe(200)
    expect((await request('/sessions/loose/v1/pets', { key: 'k' })).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 1100))
    mock.sessions.sweep()
    const samples = await scrape()
    expect(ofTenant(samples, metricNames.sessionsDropped, 'team-a')).toEqual({ '{tenant="team-a"}': 1 })
    expect(ofTenant(samples, metricNames.sessionsDropped, 'team-b')).toEqual({ '{tenant="team-b"}': 1 })
    expect(ofTenant(samples, metricNames.sessionsDropped, '')).toEqual({ '{tenant=""}': 1 })
  })

  it('keeps the series bounded by the file: a thousand session names add no series', async () => {
    const { request, scrape } = started({ maxSessions: 2000 })
    for (let i = 0; i < 1000; i++) {
      const res = await request(`/sessions/${i % 2 ? 'team-a' : 'stray'}-${i}/v1/pets/${i % 3 ? 1 : 999_999}`, {
        key: i % 5 ? 'key-a-1' : '',
      })
      await res.arrayBuffer()
    }
    const samples = await scrape()
    const tenantSeries = [...samples.keys()].filter((series) => series.includes('tenant="'))
    const tenants = new Set(tenantSeries.map((series) => /tenant="([^"]*)"/.exec(series)![1]))
    // The file's tenants and '' (the quota gauges name every tenant of the file, team B too).
    expect([...tenants].sort()).toEqual(['', 'team-a', 'team-b'])
    // Statuses 200, 404, 401 by two tenants, one reason by two tenants, and the quota gauges (used and
    // limit of 5 pools for 3 shares): nothing grows with the names.
    expect(tenantSeries.length).toBeLessThanOrEqual(2 * 3 + 2 + 2 * 5 * 3)
    expect(tenantSeries.some((series) => series.includes('team-a-') || series.includes('stray-'))).toBe(false)
  })
})

describe('the quota families, rendered from the data the stores hand a scrape', () => {
  it('writes each tenant pool’s use and limit, and the journal drops, from plain data', async () => {
    const registry = createRegistry({ requests: new RequestCounts(), version: '0.0.0', store: 'memory' })
    const samples = samplesOf(
      await registry.scrape({
        sessions: 3,
        pets: 0,
        journalEntries: 0,
        faultRules: 0,
        eventStreams: 0,
        tenantPools: [
          { tenant: 'team-a', pool: 'sessions', used: 2, limit: 2 },
          { tenant: 'team-a', pool: 'memory', used: 1024, limit: 8 * 2 ** 20 },
          { tenant: '', pool: 'sessions', used: 1, limit: 93 },
        ],
        journalDrops: [{ tenant: 'team-a', entries: 5 }],
      }),
    )
    expect(samples.get('petstore_mock_tenant_quota_used{tenant="team-a",pool="sessions"}')).toBe(2)
    expect(samples.get('petstore_mock_tenant_quota_limit{tenant="team-a",pool="memory"}')).toBe(8 * 2 ** 20)
    expect(samples.get('petstore_mock_tenant_quota_used{tenant="",pool="sessions"}')).toBe(1)
    expect(samples.get('petstore_mock_journal_dropped_total{tenant="team-a"}')).toBe(5)
  })
})

describe('a refusal’s reason, from its answer (refusal-reason.ts)', () => {
  // The messages the decisions give each refusal (docs/reference/tenants.md).
  const table: [number, string, string, string | undefined][] = [
    [
      429,
      'quota_exceeded',
      'Tenant team-a has 2 sessions, its quota (quota.sessions); no new session was created.',
      'sessions_quota',
    ],
    [
      429,
      'quota_exceeded',
      'Tenant team-a has 2 event streams open, its quota (quota.streams); close one first.',
      'streams_quota',
    ],
    [429, 'quota_exceeded', 'Tenant team-a holds 5 requests, its quota (quota.held); retry in a second.', 'held_quota'],
    [
      507,
      'insufficient_storage',
      'Tenant team-a uses 8.00 MiB, its quota (quota.memoryMiB); 0.00 MiB is free.',
      'memory_quota',
    ],
    [
      507,
      'insufficient_storage',
      'The memory budget (64.00 MiB, --max-memory) is full: pets need 1 MiB more.',
      'memory_budget',
    ],
    [507, 'insufficient_storage', 'The store is full; no pet was created.', 'capacity'],
    [503, 'too_many_sessions', 'The server holds 100 sessions, its limit.', 'session_cap'],
    [
      503,
      'service_unavailable',
      'The server already has 100 open event streams, the most it serves; retry later.',
      'streams_cap',
    ],
    [429, 'too_many_requests', 'Rate limit of 10 requests per minute exceeded.', 'rate_limit'],
    [401, 'unauthorized', 'Missing or invalid API key.', 'unauthorized'],
    [403, 'session_forbidden', 'This API key may not reach the session this request names.', 'session_forbidden'],
    [403, 'forbidden', 'The admin token sha256:… is read-only.', 'forbidden'],
    [404, 'not_found', 'No pet 9.', undefined],
    [503, 'service_unavailable', 'Redis cannot be reached.', undefined],
  ]
  it.each(table)('%i %s → %s', (status, code, message, reason) => {
    expect(refusalReasonOf(status, code, message)).toBe(reason)
    if (reason !== undefined) expect(refusalReasons).toContain(reason)
  })
})
