import { readFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { parse } from 'yaml'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { prepareMock } from '../../../src/core/app.js'
import type { Tenant } from '../../../src/core/tenants/tenant.js'
import { listen, type RunningServer } from '../../../src/node/server/server.js'
import { nodeTransport } from '../../../src/node/server/node-transport.js'
import { maxHangingRequests } from '../../../src/core/faults/slow-faults.js'
import { streamCaps } from '../../../src/core/journal/stream/stream-caps.js'
import { bearer } from '../../helpers/auth.js'
import { delayedAtLeast } from '../../helpers/asked-delay.js'

/** The example file: team-a and team-b, each with streams: 2 and held: 5. */
const example = parse(readFileSync(new URL('../../../examples/tenants/tenants.yaml', import.meta.url), 'utf8')) as {
  tenants: Tenant[]
}
const root = bearer('root-1')
const keyA = bearer('key-a-1')
const keyB = bearer('key-b-1')
const heldQuota = 5
const streamQuota = 2

const heldBody = (held = heldQuota) => ({
  code: 'quota_exceeded',
  status: 429,
  message: `Tenant team-a holds ${held} requests (hang, drip, journal waits), its quota (quota.held); this request was not held. Retry when one ends, or end one by closing its connection.`,
})
const streamBody = {
  code: 'quota_exceeded',
  status: 429,
  message: `Tenant team-a has ${streamQuota} open event streams, its quota (quota.streams); close one first.`,
}

// The example's held and stream quotas, with room for the many sessions these tests open (issue 39's
// session quota is tested in test/core/tenants/quotas.test.ts).
const roomy = example.tenants.map((tenant) => ({ ...tenant, quota: { ...tenant.quota, sessions: 20 } }))
const mockOf = () => prepareMock({ tenants: roomy, apiKeys: ['k'], adminToken: 'root-1', transport: nodeTransport })
type Mock = ReturnType<typeof mockOf>

const addRule = async (mock: Mock, session: string, rule: object) => {
  const res = await mock.build().request('/__admin/faults', {
    method: 'POST',
    headers: { ...root, 'Content-Type': 'application/json', 'X-Mock-Session': session },
    body: JSON.stringify(rule),
  })
  expect(res.status).toBe(201)
}
const remaining = async (mock: Mock, session: string): Promise<number | undefined> => {
  const res = await mock.build().request('/__admin/faults', { headers: { ...root, 'X-Mock-Session': session } })
  const { faults } = (await res.json()) as { faults: { remaining?: number }[] }
  return faults[0]?.remaining
}

/** In process: a request the client aborts later (a held one), or its answer. */
const held = (mock: Mock, path: string, headers: Record<string, string>) => {
  const controller = new AbortController()
  const answer = Promise.resolve(mock.build().request(path, { headers, signal: controller.signal })).catch(
    (error: unknown) => error as Error,
  )
  return { answer, abort: () => controller.abort() }
}
const expectRefused = async (res: Response | Error, body: object) => {
  expect(res).toBeInstanceOf(Response)
  const answer = res as Response
  expect(answer.status).toBe(429)
  expect(answer.headers.get('retry-after')).toBe('1')
  expect(await answer.json()).toEqual(body)
}

/** A GET over a real socket: its status, or the error that ended it. */
const socketGet = (url: string, headers: Record<string, string>, timeoutMs: number) =>
  new Promise<{ status?: number; error?: string }>((resolve) => {
    const req = httpRequest(url, { headers, timeout: timeoutMs }, (res) => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode! }))
      res.on('error', (error) => resolve({ status: res.statusCode!, error: error.message }))
    })
    req.on('timeout', () => req.destroy(new Error('client timeout')))
    req.on('error', (error) => resolve({ error: error.message }))
    req.end()
  })

describe('held requests by tenant (hang, drip, journal waits), issue 39 §2', () => {
  let mock: Mock
  let server: RunningServer
  const pending: { abort: () => void }[] = []
  beforeAll(async () => {
    mock = mockOf()
    server = await listen(mock.build(), {
      host: '127.0.0.1',
      port: 0,
      headersTimeout: 2000,
      requestTimeout: 2000,
      sendTimeout: 5000,
    })
  })
  afterEach(async () => {
    for (const each of pending.splice(0)) each.abort()
    await vi.waitFor(() => expect(mock.held.usedTotal).toBe(0))
  })
  afterAll(() => server.close(500))

  it(`team A at ${maxHangingRequests} hangs: ${heldQuota} held, the rest 429 (rule not counted); team B's hang holds its whole delayMs over a socket`, async () => {
    await addRule(mock, 'team-a-1', { operation: 'listPets', fault: 'hang', times: 2000 })
    const holdMs = 1500
    await addRule(mock, 'team-b-1', { operation: 'listPets', fault: 'hang', delayMs: holdMs, times: 1 })
    const flood = Array.from({ length: maxHangingRequests }, () => held(mock, '/sessions/team-a-1/v1/pets', keyA))
    pending.push(...flood)
    // Every request beyond the quota is answered at once; the first five are still held.
    const answered = await Promise.all(flood.slice(heldQuota).map((each) => each.answer))
    for (const res of answered.slice(0, 3)) await expectRefused(res, heldBody())
    expect(answered.map((res) => (res as Response).status)).toEqual(Array(maxHangingRequests - heldQuota).fill(429))
    expect(mock.held.used(example.tenants[0]!)).toBe(heldQuota)
    // A refused request changes nothing: only the five held ones counted the rule down.
    expect(await remaining(mock, 'team-a-1')).toBe(2000 - heldQuota)

    // Held its whole time, then reset by the server (before tenants: reset at once, the pool being full).
    const b = await delayedAtLeast(holdMs - 50, () =>
      socketGet(`${server.url}/sessions/team-b-1/v1/pets`, keyB, 20_000),
    )
    expect(b.status).toBeUndefined()
    expect(b.error).toMatch(/socket hang up|ECONNRESET/)
    expect(mock.held.used(example.tenants[0]!)).toBe(heldQuota)
  })

  it('a place comes back when a held request ends: the client aborts one, the next hang is held again', async () => {
    await addRule(mock, 'team-a-2', { operation: 'listPets', fault: 'hang', times: 100 })
    const five = Array.from({ length: heldQuota }, () => held(mock, '/sessions/team-a-2/v1/pets', keyA))
    pending.push(...five)
    await vi.waitFor(() => expect(mock.held.used(example.tenants[0]!)).toBe(heldQuota))
    await expectRefused(await held(mock, '/sessions/team-a-2/v1/pets', keyA).answer, heldBody())
    five[0]!.abort()
    expect(await five[0]!.answer).toMatchObject({ name: 'ConnectionResetError' })
    expect(mock.held.used(example.tenants[0]!)).toBe(heldQuota - 1)
    const again = held(mock, '/sessions/team-a-2/v1/pets', keyA)
    pending.push(again)
    await vi.waitFor(() => expect(mock.held.used(example.tenants[0]!)).toBe(heldQuota))
    expect(await remaining(mock, 'team-a-2')).toBe(100 - heldQuota - 1)
  })

  it('hang, drip and journal waits share one quota.held; team B drips and waits meanwhile', async () => {
    await addRule(mock, 'team-a-4', { operation: 'getPet', fault: 'hang', times: 3 })
    await addRule(mock, 'team-a-4', { operation: 'listPets', fault: 'drip', times: 5 })
    const hangs = [0, 1].map(() => held(mock, '/sessions/team-a-4/v1/pets/1', keyA))
    // Three pets: a body of several pieces, sent one per 100 ms as the client reads (this one does not).
    const drips = [0, 1].map(() => held(mock, '/sessions/team-a-4/v1/pets?limit=3', keyA))
    const waitPath = '/__admin/requests?operation=createPet&wait=30s'
    const wait = held(mock, waitPath, { ...root, 'X-Mock-Session': 'team-a-4' })
    pending.push(...hangs, ...drips, wait)
    // A drip's headers leave at once; it is held until its body is sent or the client goes.
    for (const each of drips) expect(((await each.answer) as Response).status).toBe(200)
    await vi.waitFor(() => expect(mock.held.used(example.tenants[0]!)).toBe(heldQuota))
    await expectRefused(await held(mock, '/sessions/team-a-4/v1/pets?limit=3', keyA).answer, heldBody())
    await expectRefused(await held(mock, '/sessions/team-a-4/v1/pets/1', keyA).answer, heldBody())
    await expectRefused(await held(mock, waitPath, { ...root, 'X-Mock-Session': 'team-a-4' }).answer, heldBody())
    // Each rule was counted by the requests it held only.
    const list = await mock.build().request('/__admin/faults', { headers: { ...root, 'X-Mock-Session': 'team-a-4' } })
    const { faults } = (await list.json()) as { faults: { fault: string; remaining?: number }[] }
    expect(faults.map((rule) => [rule.fault, rule.remaining])).toEqual([
      ['hang', 1],
      ['drip', 3],
    ])

    await addRule(mock, 'team-b-2', { operation: 'listPets', fault: 'drip', times: 1 })
    const drip = await socketGet(`${server.url}/sessions/team-b-2/v1/pets?limit=3`, keyB, 20_000)
    expect(drip).toMatchObject({ status: 200 })
    expect(drip.error).toBeUndefined()
    const bWait = mock
      .build()
      .request('/__admin/requests?operation=listPets&wait=10s', { headers: { ...root, 'X-Mock-Session': 'team-b-2' } })
    expect((await bWait).status).toBe(200)
  })

  it('a drip whose client goes gives its place back at once, over a real socket', async () => {
    await addRule(mock, 'team-a-5', { operation: 'listPets', fault: 'drip', times: 1 })
    // Twenty pets: a body of many pieces, seconds of dripping; the client leaves after the first.
    const gone = await new Promise<string>((resolve) => {
      const req = httpRequest(`${server.url}/sessions/team-a-5/v1/pets?limit=20`, { headers: keyA }, (res) => {
        res.once('data', () => {
          expect(mock.held.used(example.tenants[0]!)).toBe(1)
          req.destroy()
          resolve('left')
        })
      })
      req.on('error', () => undefined)
      req.end()
    })
    expect(gone).toBe('left')
    await vi.waitFor(() => expect(mock.held.used(example.tenants[0]!)).toBe(0))
  })

  it('waits, table-driven: a tenant at quota.held gets 429 for any wait (0s too); one of no tenant is not counted', async () => {
    for (const session of ['team-a-3', 'shared-1']) {
      expect(
        (
          await mock
            .build()
            .request(`/sessions/${session}/v1/pets`, { headers: session.startsWith('team-a') ? keyA : bearer('k') })
        ).status,
      ).toBe(200)
    }
    const waits = Array.from({ length: heldQuota }, () =>
      held(mock, '/__admin/requests?operation=createPet&wait=30s', { ...root, 'X-Mock-Session': 'team-a-3' }),
    )
    pending.push(...waits)
    await vi.waitFor(() => expect(mock.held.used(example.tenants[0]!)).toBe(heldQuota))
    for (const query of ['wait=0s', 'wait=1ms', 'wait=60s&count=5', 'wait=10s&operation=listPets']) {
      const res = await mock
        .build()
        .request(`/__admin/requests?${query}`, { headers: { ...root, 'X-Mock-Session': 'team-a-3' } })
      await expectRefused(res, heldBody())
    }
    // Without a wait, the journal is read as usual.
    const read = await mock.build().request('/__admin/requests', { headers: { ...root, 'X-Mock-Session': 'team-a-3' } })
    expect(read.status).toBe(200)
    const shared = await mock
      .build()
      .request('/__admin/requests?wait=0s&operation=createPet', { headers: { ...root, 'X-Mock-Session': 'shared-1' } })
    expect(shared.status).toBe(408)
    expect(mock.held.used(undefined)).toBe(0)
  })
})

describe('the hang count is per app', () => {
  it(`one app holding ${maxHangingRequests} hangs leaves another app's hang held`, async () => {
    const one = prepareMock()
    const other = prepareMock()
    for (const mock of [one, other]) {
      await mock.build().request('/__admin/faults', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ fault: 'hang' }),
      })
    }
    const flood = Array.from({ length: maxHangingRequests }, () => held(one as Mock, '/v1/pets', bearer()))
    // Authentication answers first (a turn or more): then each is held.
    await vi.waitFor(() => expect(one.held.usedTotal).toBe(maxHangingRequests), { timeout: 15_000 })
    // Beyond this app's pool: dropped at once, as before tenants.
    expect(await held(one as Mock, '/v1/pets', bearer()).answer).toMatchObject({ name: 'ConnectionResetError' })
    const mine = held(other as Mock, '/v1/pets', bearer())
    let settled = false
    void mine.answer.then(() => (settled = true))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(settled).toBe(false)
    expect(other.held.usedTotal).toBe(1)
    mine.abort()
    for (const each of flood) each.abort()
    await Promise.all(flood.map((each) => each.answer))
    expect(one.held.usedTotal).toBe(0)
  })
})

describe('event streams by tenant, issue 39 §2', () => {
  // The session made first: a stream, as every read, creates none (issue 40 §6).
  const openStream = async (mock: Mock, session: string) => {
    const app = mock.build()
    if (session !== 'default') await app.request(`/__admin/sessions/${session}`, { method: 'POST', headers: root })
    return app.request('/__admin/requests/stream', { headers: { ...root, 'X-Mock-Session': session } })
  }

  it(`team A opening ${streamCaps.perSession} streams in each of 10 sessions: ${streamQuota} open, the rest 429; team B and root still open theirs`, async () => {
    const mock = mockOf()
    const opened: Response[] = []
    for (let s = 0; s < 10; s++) {
      for (let i = 0; i < streamCaps.perSession; i++) opened.push(await openStream(mock, `team-a-${s}`))
    }
    expect(opened.filter((res) => res.status === 200)).toHaveLength(streamQuota)
    const refused = opened.filter((res) => res.status !== 200)
    expect(refused).toHaveLength(10 * streamCaps.perSession - streamQuota)
    for (const res of refused) {
      expect(res.status).toBe(429)
      expect(await res.json()).toEqual(streamBody)
    }
    const others = [
      await openStream(mock, 'team-b-1'),
      await openStream(mock, 'team-b-2'),
      await openStream(mock, 'default'),
      await openStream(mock, 'shared-1'),
    ]
    expect(others.map((res) => res.status)).toEqual([200, 200, 200, 200])
    // HEAD asks the same question.
    const head = await mock
      .build()
      .request('/__admin/requests/stream', { method: 'HEAD', headers: { ...root, 'X-Mock-Session': 'team-a-9' } })
    expect(head.status).toBe(429)
    // Closing one of team A's makes room for one more.
    const [first, second] = opened.filter((res) => res.status === 200)
    await first!.body!.cancel()
    const again = await openStream(mock, 'team-a-7')
    expect(again.status).toBe(200)
    await Promise.all([again, second!, ...others].map((res) => res.body!.cancel()))
  })

  it('the sessions of no tenant share what no tenant reserved: 503 beyond it, naming it', async () => {
    const mock = mockOf()
    const unreserved = streamCaps.total - 2 * streamQuota
    const opened: Response[] = []
    for (let s = 0; opened.length < unreserved; s++) {
      for (let i = 0; i < streamCaps.perSession && opened.length < unreserved; i++) {
        opened.push(await openStream(mock, `shared-${s}`))
      }
    }
    expect(opened.every((res) => res.status === 200)).toBe(true)
    const beyond = await openStream(mock, 'default')
    expect(beyond.status).toBe(503)
    expect(await beyond.json()).toEqual({
      code: 'service_unavailable',
      status: 503,
      message: `The sessions of no tenant already have ${unreserved} open event streams, what the tenants leave of the server's ${streamCaps.total}; retry later.`,
    })
    // Each tenant still has its whole quota.
    const theirs = await Promise.all(['team-a-1', 'team-a-2', 'team-b-1', 'team-b-2'].map((s) => openStream(mock, s)))
    expect(theirs.map((res) => res.status)).toEqual([200, 200, 200, 200])
    await Promise.all([...opened, ...theirs].map((res) => res.body?.cancel()))
  })
})
