import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { contractApp } from '../../helpers/contract.js'
import { bearer } from '../../helpers/auth.js'
import { stagingIncident } from '../../helpers/timeline-scenario.js'
import { maxFaultRules } from '../../../src/core/faults/rule-check.js'
import type { Tenant } from '../../../src/core/tenants/tenant.js'
import type { BudgetReport } from '../../../src/core/budget/memory-budget.js'

// Issue 43: "Timelines are charged to the memory budget and to the tenant's quota." A timeline is
// charged what it holds (its phases' own answers included), not a flat rule's cost: its bytes show in
// the budget's figures and its tenant's use, and a DELETE gives them back; a PUT beyond the budget or
// the quota is a 507 that changes nothing; the session's 1000 rules count its timelines. A contract
// suite: on memory here, and on Redis, through nginx to three replicas and through session path
// prefixes in vitest.redis.config.ts.

type Request = ReturnType<typeof contractApp>['request']
interface ErrorBody {
  code: string
  message: string
  status: number
}

const tenants = (
  JSON.parse(readFileSync(new URL('../../../examples/tenants/tenants.json', import.meta.url), 'utf8')) as {
    tenants: Tenant[]
  }
).tenants
const keys = { apiKeys: ['t'], adminToken: 'root-1' }

/** Characters of own answers in {@link big}: its text is at least this long. */
const answerChars = 24 * 30_000
/** A timeline of 24 phases, each answering its own 30,000-character body: about 1.4 MB as the budget counts text. */
const big = {
  start: 'now',
  phases: Array.from({ length: 24 }, () => ({
    for: '1m',
    rule: {
      operation: 'getPet',
      status: 503,
      body: { code: 'down', message: 'x'.repeat(30_000), status: 503 },
      breaksContract: true,
    },
  })),
}
/** What the budget counts {@link big} at least: two bytes a character of its answers. */
const bigBytes = 2 * answerChars

const put = (request: Request, session: string, name: string, body: unknown, token?: string) =>
  request(`/__admin/timelines/${name}`, {
    method: 'PUT',
    headers: {
      'Content-Type': 'application/json',
      'X-Mock-Session': session,
      ...(token === undefined ? {} : bearer(token)),
    },
    body: JSON.stringify(body),
  })
const remove = (request: Request, session: string, name: string, token?: string) =>
  request(`/__admin/timelines/${name}`, {
    method: 'DELETE',
    headers: { 'X-Mock-Session': session, ...(token === undefined ? {} : bearer(token)) },
  })
const names = async (request: Request, session: string, token?: string) => {
  const res = await request('/__admin/timelines', {
    headers: { 'X-Mock-Session': session, ...(token === undefined ? {} : bearer(token)) },
  })
  expect(res.status).toBe(200)
  return ((await res.json()) as { timelines: { name: string }[] }).timelines.map((t) => t.name)
}
const seed = (request: Request, session: string, count: number, token?: string) =>
  request('/__admin/seed', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Mock-Session': session,
      ...(token === undefined ? {} : bearer(token)),
    },
    body: JSON.stringify({ count }),
  })
const memory = async (request: Request) =>
  ((await (await request('/__admin/health')).json()) as { memory: BudgetReport }).memory
const tenantUsed = async (request: Request, tenant: string) =>
  (await memory(request)).tenants!.find((t) => t.tenant === tenant)!.memory.usedBytes
const sessionNames = async (request: Request, token?: string) =>
  (
    (await (await request('/__admin/sessions', { headers: token === undefined ? {} : bearer(token) })).json()) as {
      sessions: { name: string }[]
    }
  ).sessions
    .map((s) => s.name)
    .sort()
const refusal = async (res: Response): Promise<ErrorBody> => {
  expect(res.status).toBe(507)
  const body = (await res.json()) as ErrorBody
  expect(Object.keys(body).sort()).toEqual(['code', 'message', 'status'])
  expect(body).toMatchObject({ code: 'insufficient_storage', status: 507 })
  return body
}

describe('a timeline is charged to the memory budget by what it holds (issue 43)', () => {
  it('its bytes show in the budget’s rules; a smaller replace gives back the difference, a DELETE all of it', async () => {
    const { request } = contractApp({ maxMemory: 64 })
    expect((await put(request, 'q', 'small', stagingIncident)).status).toBe(201)
    const before = (await memory(request)).state
    expect((await put(request, 'q', 'big', big)).status).toBe(201)
    const held = (await memory(request)).state
    const charged = held.parts.rules - before.parts.rules
    expect(charged).toBeGreaterThanOrEqual(bigBytes)
    expect(charged).toBeLessThan(bigBytes + 64 * 1024)
    expect(held.usedBytes - before.usedBytes).toBe(charged)
    // Replaced by the example: what it held more goes back.
    expect((await put(request, 'q', 'big', stagingIncident)).status).toBe(200)
    expect((await memory(request)).state.parts.rules - before.parts.rules).toBeLessThan(4096)
    expect((await put(request, 'q', 'big', big)).status).toBe(200)
    expect((await memory(request)).state.parts.rules).toBe(held.parts.rules)
    // A rule used up by a request gives back its charge; the timeline keeps its own (getPet, deprecated,
    // adds a deprecation record: the rules are compared).
    const once = JSON.stringify({ operation: 'getPet', status: 500, times: 1 })
    const used = { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Mock-Session': 'q' }, body: once }
    expect((await request('/__admin/faults', used)).status).toBe(201)
    expect((await memory(request)).state.parts.rules).toBeGreaterThan(held.parts.rules)
    expect((await request('/v1/pets/1', { headers: { ...bearer(), 'X-Mock-Session': 'q' } })).status).toBe(500)
    expect((await memory(request)).state.parts.rules).toBe(held.parts.rules)
    // DELETE /__admin/faults leaves the timelines, and their charge; it gives back its rules'.
    const rule = { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Mock-Session': 'q' } }
    const addRule = () =>
      request('/__admin/faults', { ...rule, body: JSON.stringify({ operation: 'getPet', status: 500 }) })
    for (let i = 0; i < 3; i++) expect((await addRule()).status).toBe(201)
    expect((await memory(request)).state.parts.rules).toBeGreaterThan(held.parts.rules)
    const clear = () => request('/__admin/faults', { method: 'DELETE', headers: { 'X-Mock-Session': 'q' } })
    expect((await clear()).status).toBe(204)
    expect((await memory(request)).state.parts.rules).toBe(held.parts.rules)
    // Deleted: everything it held.
    expect((await remove(request, 'q', 'big')).status).toBe(204)
    expect((await memory(request)).state.parts.rules).toBe(before.parts.rules)
    expect(await names(request, 'q')).toEqual(['small'])
    // DELETE /__admin/faults of a session with no timeline (one store call) gives back its rules' too.
    expect((await remove(request, 'q', 'small')).status).toBe(204)
    const none = (await memory(request)).state
    for (let i = 0; i < 3; i++) expect((await addRule()).status).toBe(201)
    expect((await clear()).status).toBe(204)
    expect((await memory(request)).state).toEqual(none)
  })

  it('a PUT beyond --max-memory is 507 insufficient_storage and changes nothing; a DELETE makes room again', async () => {
    // 2 MiB: 1.5 MiB for pets, rules and sessions, the rest for the journal; one big timeline fits, two do not.
    const { request } = contractApp({ maxMemory: 2 })
    expect((await put(request, 'q', 'first', big)).status).toBe(201)
    const before = { state: (await memory(request)).state, sessions: await sessionNames(request) }
    const body = await refusal(await put(request, 'q', 'second', big))
    expect(body.message).toMatch(
      /^The memory budget \(2\.0 MiB, --max-memory\) is full: fault rules need [\d.]+ MiB more and [\d.]+ MiB is free; fault rules hold the most \([\d.]+ MiB\)\. Nothing was changed\. /,
    )
    // The same shape and wording as any write the full budget refuses (a seed here).
    const pet = await refusal(await seed(request, 'q', 10_000))
    expect(pet.message).toMatch(/^The memory budget \(2\.0 MiB, --max-memory\) is full: pets need /)
    // Nothing stored, nothing spent, no session made.
    expect(await names(request, 'q')).toEqual(['first'])
    expect({ state: (await memory(request)).state, sessions: await sessionNames(request) }).toEqual(before)
    // Replacing the one it holds by one as big costs nothing more; by one bigger than what is free, it is refused.
    expect((await put(request, 'q', 'first', big)).status).toBe(200)
    const bigger = { ...big, phases: [...big.phases, ...big.phases.slice(0, 8)] }
    await refusal(await put(request, 'q', 'first', bigger))
    expect((await memory(request)).state).toEqual(before.state)
    // Deleted, its room is free again.
    expect((await remove(request, 'q', 'first')).status).toBe(204)
    expect((await put(request, 'q', 'second', big)).status).toBe(201)
    expect(await names(request, 'q')).toEqual(['second'])
  })

  it('a bundle that carries a timeline is charged it when loaded, and refused beyond the budget', async () => {
    const { request } = contractApp({ maxMemory: 2 })
    expect((await put(request, 'source', 'first', big)).status).toBe(201)
    const bundle = await (
      await request('/__admin/snapshot', { headers: { 'X-Mock-Session': 'source', Accept: 'application/json' } })
    ).json()
    const load = (session: string) =>
      request('/__admin/snapshot', {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', 'X-Mock-Session': session },
        body: JSON.stringify(bundle),
      })
    expect((await put(request, 'other', 'small', stagingIncident)).status).toBe(201)
    const before = (await memory(request)).state
    // Two sessions holding the big timeline: more than the budget.
    await refusal(await load('other'))
    expect((await memory(request)).state).toEqual(before)
    expect(await names(request, 'other')).toEqual(['small'])
    // Loaded again where it is: its rules no more than they hold (its pets are charged now: a load is no start world).
    expect((await load('source')).status).toBe(204)
    expect((await memory(request)).state.parts.rules).toBe(before.parts.rules)
    // Deleted from the source, it fits in the other session, charged as the PUT was.
    expect((await remove(request, 'source', 'first')).status).toBe(204)
    const freed = (await memory(request)).state
    expect(before.parts.rules - freed.parts.rules).toBeGreaterThanOrEqual(bigBytes)
    expect((await load('other')).status).toBe(204)
    expect(await names(request, 'other')).toEqual(['first'])
    const loaded = (await memory(request)).state
    expect(loaded.parts.rules - freed.parts.rules).toBeGreaterThanOrEqual(bigBytes)
    await refusal(await put(request, 'source', 'second', big))
  })
})

describe('a timeline is charged to its tenant’s memory quota (issue 39 §2, issue 43)', () => {
  it('team A’s timelines count in its quota.memoryMiB; beyond it a PUT is 507 as its other writes, changing nothing; team B is not refused', async () => {
    const { request } = contractApp({ ...keys, tenants, maxMemory: 64 })
    expect((await put(request, 'team-a-1', 'small', stagingIncident, 'adm-a-1')).status).toBe(201)
    expect((await put(request, 'team-b-1', 'small', stagingIncident, 'adm-b-1')).status).toBe(201)
    const shared = (await memory(request)).state
    const teamB = await tenantUsed(request, 'team-b')
    const used = await tenantUsed(request, 'team-a')
    expect((await put(request, 'team-a-1', 't0', big, 'adm-a-1')).status).toBe(201)
    const charged = (await tenantUsed(request, 'team-a')) - used
    expect(charged).toBeGreaterThanOrEqual(bigBytes)
    expect(charged).toBeLessThan(bigBytes + 64 * 1024)
    // Its tenant's, not the share of the sessions of no tenant, nor team B's.
    expect((await memory(request)).state).toEqual(shared)
    expect(await tenantUsed(request, 'team-b')).toBe(teamB)
    // Deleted: given back.
    expect((await remove(request, 'team-a-1', 't0', 'adm-a-1')).status).toBe(204)
    expect(await tenantUsed(request, 'team-a')).toBe(used)
    // Filled: 8 MiB hold five, the sixth is refused.
    let res: Response | undefined
    let stored = 0
    for (let i = 0; i < 10 && res?.status !== 507; i++) {
      res = await put(request, 'team-a-1', `t${i}`, big, 'adm-a-1')
      if (res.status === 201) stored++
    }
    expect(stored).toBe(5)
    const before = {
      used: await tenantUsed(request, 'team-a'),
      timelines: await names(request, 'team-a-1', 'adm-a-1'),
      sessions: await sessionNames(request, 'root-1'),
    }
    const body = await refusal(res!)
    expect(body.message).toMatch(
      /^Tenant team-a uses [\d.]+ MiB of its memory quota of 8\.0 MiB \(quota\.memoryMiB\): fault rules need [\d.]+ MiB more and [\d.]+ MiB is free; fault rules hold the most \([\d.]+ MiB\)\. Nothing was changed\. To free it, .*, with a team-a admin token; or ask the operator for a larger quota\.memoryMiB\.$/,
    )
    expect(body.message).not.toContain('team-b')
    // The same shape as team A's other 507s (a seed).
    const pet = await refusal(await seed(request, 'team-a-1', 100_000, 'adm-a-1'))
    expect(pet.message).toMatch(
      /^Tenant team-a uses [\d.]+ MiB of its memory quota of 8\.0 MiB \(quota\.memoryMiB\): pets need /,
    )
    // Nothing changed: no timeline, nothing spent, no session.
    expect({
      used: await tenantUsed(request, 'team-a'),
      timelines: await names(request, 'team-a-1', 'adm-a-1'),
      sessions: await sessionNames(request, 'root-1'),
    }).toEqual(before)
    // Team B, and the sessions of no tenant, are not refused.
    expect((await put(request, 'team-b-1', 'big', big, 'adm-b-1')).status).toBe(201)
    expect((await tenantUsed(request, 'team-b')) - teamB).toBeGreaterThanOrEqual(bigBytes)
    expect((await put(request, 'ci-1', 'big', big, 'root-1')).status).toBe(201)
    // Team A frees its share with its own token: a DELETE makes room for the one refused.
    expect((await remove(request, 'team-a-1', 't0', 'adm-a-1')).status).toBe(204)
    expect((await put(request, 'team-a-1', 't5', big, 'adm-a-1')).status).toBe(201)
  })
})

describe('the session’s 1000 fault rules count its timelines (issue 43)', () => {
  it('with 999 rules and a timeline, a new rule or timeline is 507 and changes nothing; a replace is taken; a DELETE makes room', async () => {
    const { request } = contractApp()
    const headers = { 'Content-Type': 'application/json', 'X-Mock-Session': 'r' }
    const addRule = () =>
      request('/__admin/faults', {
        method: 'POST',
        headers,
        body: JSON.stringify({ operation: 'getPet', petId: 99, status: 500 }),
      })
    expect((await put(request, 'r', 'only', stagingIncident)).status).toBe(201)
    for (let i = 0; i < maxFaultRules - 1; i++) expect((await addRule()).status).toBe(201)
    const before = (await memory(request)).state
    const rules = await (await request('/__admin/faults', { headers })).text()
    const timeline = await refusal(await put(request, 'r', 'another', stagingIncident))
    expect(timeline.message).toBe(
      `The session holds ${maxFaultRules} fault rules and timelines together, the most it may; delete some first.`,
    )
    const rule = await refusal(await addRule())
    expect(rule.message).toBe(
      `The session holds ${maxFaultRules} fault rules and timelines together, the most it may; delete some first.`,
    )
    expect(await names(request, 'r')).toEqual(['only'])
    expect(await (await request('/__admin/faults', { headers })).text()).toBe(rules)
    expect((await memory(request)).state).toEqual(before)
    // A replace is no new rule.
    expect((await put(request, 'r', 'only', { ...stagingIncident, repeat: false, seed: 2 })).status).toBe(200)
    // The timeline deleted: a rule fits again; a rule deleted: a timeline fits again.
    expect((await remove(request, 'r', 'only')).status).toBe(204)
    expect((await addRule()).status).toBe(201)
    const listed = (await (await request('/__admin/faults', { headers })).json()) as { faults: { id: number }[] }
    expect((await request(`/__admin/faults/${listed.faults[0]!.id}`, { method: 'DELETE', headers })).status).toBe(204)
    expect((await put(request, 'r', 'another', stagingIncident)).status).toBe(201)
  })
})
