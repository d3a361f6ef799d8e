import { createRequire } from 'node:module'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  createMockClient,
  type FetchLike,
  type MockClient,
  MockAdminError,
  RequestNotReceivedError,
} from '../../src/client/index.js'
import { delayedAtLeast } from '../helpers/asked-delay.js'
import { fixturePets, packageVersion } from '../../src/generated/contract.js'
import { assertContract } from '../helpers/contract.js'
import { type SpawnedServer, spawnServer } from '../helpers/spawn-server.js'
import { bearer } from '../helpers/auth.js'

const adminToken = 'admin-secret'
let server: SpawnedServer
let mock: MockClient

/** The platform's fetch, with every answer checked against the contract (admin errors: the Error body). */
const checkedFetch: FetchLike = async (url, init) => {
  const res = await fetch(url, init)
  await assertContract(init.method ?? 'GET', url, res)
  return res
}

const api = (path: string, init: RequestInit & { session?: string } = {}) =>
  checkedFetch(`${server.url}/v1${path}`, {
    ...init,
    headers: {
      ...bearer(),
      'Content-Type': 'application/json',
      ...(init.session ? { 'X-Mock-Session': init.session } : {}),
    },
  })

/** The rejection of a promise that must reject. */
const rejection = async (promise: Promise<unknown>): Promise<any> => {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection')
}

beforeAll(async () => {
  server = await spawnServer(['--admin-token', adminToken, '--log', 'silent'])
  mock = createMockClient({ baseUrl: server.url, adminToken, fetch: checkedFetch })
})
afterAll(() => server?.stop())
beforeEach(async () => {
  await mock.reset()
  for (const { name } of await mock.sessions.list()) if (name !== 'default') await mock.sessions.delete(name)
})

describe('createMockClient against the CLI on a socket', () => {
  it('health() needs no token and reports the version', async () => {
    const health = await createMockClient({ baseUrl: `${server.url}/` }).health()
    expect(health).toEqual({
      status: 'ok',
      version: packageVersion,
      uptimeSeconds: expect.any(Number),
      pets: 12,
      sessions: 1,
      sessionsDropped: 0,
      // The CLI derives a budget from the process's limits.
      memory: expect.objectContaining({ budgetBytes: expect.any(Number), usedBytes: expect.any(Number) }),
    })
  })

  it('faults.add/list/remove/clear manage rules that shape /v1 answers', async () => {
    const rule = await mock.faults.add({ operation: 'getPet', petId: 7, status: 503, times: 2 })
    expect(rule).toEqual({ id: 1, operation: 'getPet', petId: 7, status: 503, times: 2, remaining: 2 })
    expect((await api('/pets/7')).status).toBe(503)
    expect(await mock.faults.list()).toEqual([{ ...rule, remaining: 1 }])
    await mock.faults.remove(rule.id)
    expect((await api('/pets/7')).status).toBe(200)
    await mock.faults.add({ status: 500 })
    await mock.faults.add({ operation: 'listPets', delayMs: 10 })
    expect(await mock.faults.list()).toHaveLength(2)
    await mock.faults.clear()
    expect(await mock.faults.list()).toEqual([])
  })

  it('faults.put sets a rule by name idempotently: created, then replaced in place; remove takes the name', async () => {
    expect(await mock.faults.put('ci.flaky-list', { operation: 'listPets', status: 503, times: 2 })).toEqual({
      rule: { id: 1, name: 'ci.flaky-list', operation: 'listPets', status: 503, times: 2, remaining: 2 },
      created: true,
    })
    await mock.faults.add({ operation: 'listPets', status: 500 })
    expect(await mock.faults.put('ci.flaky-list', { operation: 'listPets', status: 502 })).toEqual({
      rule: { id: 1, name: 'ci.flaky-list', operation: 'listPets', status: 502 },
      created: false,
    })
    expect((await api('/pets')).status).toBe(502)
    expect((await mock.faults.list()).map((rule) => rule.name)).toEqual(['ci.flaky-list', undefined])
    await mock.faults.remove('ci.flaky-list')
    expect((await rejection(mock.faults.remove('ci.flaky-list'))).status).toBe(404)
    const bad = await rejection(mock.faults.put('7', { status: 500 }))
    expect(bad).toBeInstanceOf(MockAdminError)
    expect(bad.message).toContain('name "7" is digits only')
    await mock.faults.remove(2)
    expect(await mock.faults.list()).toEqual([])
  })

  it('timelines.put/get/list/remove run phases on the session clock (checked against the admin document)', async () => {
    await mock.clock.set({ now: '2030-01-01T00:00:00Z', frozen: true })
    const phases = [{ for: '30s', rule: { status: 503 } }, { for: '30s', rule: { status: 429 } }, { for: 'forever' }]
    const put = await mock.timelines.put('incident', { start: 'now', phases, repeat: false })
    expect(put.created).toBe(true)
    expect(put.timeline.current).toEqual({
      phase: 0,
      startedAt: '2030-01-01T00:00:00.000Z',
      nextAt: '2030-01-01T00:00:30.000Z',
      cycle: 0,
    })
    expect((await api('/pets')).status).toBe(503)
    await mock.clock.set({ now: '2030-01-01T00:00:45Z', frozen: true })
    expect((await api('/pets')).status).toBe(429)
    expect((await mock.timelines.get('incident')).current?.phase).toBe(1)
    expect((await mock.timelines.list()).timelines.map((t) => t.name)).toEqual(['incident'])
    expect((await mock.timelines.put('incident', { preset: 'outage' })).created).toBe(false)
    await mock.timelines.remove('incident')
    expect((await rejection(mock.timelines.get('incident'))).status).toBe(404)
    const bad = await rejection(mock.timelines.put('x', { phases: [{ for: '0s' }] }))
    expect(bad.message).toContain('phases[0].for must be more than 0')
  })

  it('faults.add takes a rule with its own answer and a target client (typed: RuleWhen, breaksContract)', async () => {
    const rule = await mock.faults.add({
      operation: 'getPet',
      status: 404,
      body: { code: 'not_found', message: 'Hidden from this client.', status: 404 },
      when: { apiKey: 't' },
    })
    expect(rule).toMatchObject({ id: 1, status: 404, when: { apiKey: 't' } })
    const hidden = await api('/pets/1')
    expect(hidden.status).toBe(404)
    expect(await hidden.json()).toEqual({ code: 'not_found', message: 'Hidden from this client.', status: 404 })
    const other = await checkedFetch(`${server.url}/v1/pets/1`, { headers: bearer('other') })
    expect(other.status).toBe(200)
    const refused = await rejection(mock.faults.add({ operation: 'listPets', status: 200, body: 'not a list' }))
    expect(refused.status).toBe(400)
    expect(refused.message).toMatch(/mark the rule breaksContract: true\.$/)
  })

  it('reset() restores pets, rules, journal and ids', async () => {
    await api('/pets', { method: 'POST', body: '{"name":"Rex","categoryId":1}' })
    await mock.faults.add({ status: 500 })
    await mock.reset()
    expect(await mock.state.get()).toEqual(fixturePets)
    expect(await mock.faults.list()).toEqual([])
    expect(await mock.requests.list()).toEqual([])
  })

  it('state.put/get replace and read every pet; new ids continue after the largest', async () => {
    const pets = [
      { id: 5, name: 'Rex', categoryId: 2, status: 'sold' as const },
      { id: 9, name: 'Tom', categoryId: 1 },
    ]
    await mock.state.put(pets)
    expect(await mock.state.get()).toEqual(pets)
    expect(await (await api('/pets', { method: 'POST', body: '{"name":"New","categoryId":1}' })).json()).toEqual({
      id: 10,
      name: 'New',
      categoryId: 1,
    })
  })

  it('seed() fakes pets deterministically', async () => {
    await mock.seed({ count: 5, seed: 7 })
    const first = await mock.state.get()
    expect(first).toHaveLength(5)
    await mock.seed({ count: 5, seed: 7 })
    expect(await mock.state.get()).toEqual(first)
    await mock.seed({ count: 2 })
    expect(await mock.state.get()).toHaveLength(2)
  })

  it('requests.list filters on the server; requests.clear empties the journal', async () => {
    await api('/pets?limit=2')
    await api('/pets/1')
    await api('/pets/999')
    const all = await mock.requests.list()
    expect(all.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
      'GET /v1/pets/999 404',
      'GET /v1/pets/1 200',
      'GET /v1/pets 200',
    ])
    expect(all[2]).toMatchObject({ operation: 'listPets', query: { limit: '2' }, authorization: 'Bearer …' })
    expect((await mock.requests.list({ operation: 'getPet', status: 404 })).map((e) => e.path)).toEqual([
      '/v1/pets/999',
    ])
    expect(await mock.requests.list({ limit: 1 })).toEqual([all[0]])
    await mock.requests.clear()
    expect(await mock.requests.list()).toEqual([])
  })

  it('requests.count counts matches of a filter or a predicate', async () => {
    await api('/pets', { method: 'POST', body: '{"name":"A","categoryId":1}' })
    await api('/pets', { method: 'POST', body: '{"name":"B","categoryId":2,"status":"sold"}' })
    await api('/pets/1')
    expect(await mock.requests.count()).toBe(3)
    expect(await mock.requests.count({ operation: 'createPet' })).toBe(2)
    expect(await mock.requests.count({ method: 'post', body: { status: 'sold' } })).toBe(1)
    expect(await mock.requests.count({ path: /^\/v1\/pets\/\d+$/ })).toBe(1)
    expect(await mock.requests.count((e) => e.status === 201)).toBe(2)
    expect(await mock.requests.count({ operation: 'createPet', status: 400 })).toBe(0)
  })

  it('requests.waitFor resolves with a request sent while it waits', async () => {
    const waiting = mock.requests.waitFor({ operation: 'createPet', body: { name: 'Late' } }, { timeoutMs: 3000 })
    await new Promise((resolve) => setTimeout(resolve, 150))
    await api('/pets', { method: 'POST', body: '{"name":"Early","categoryId":1}' })
    await api('/pets', { method: 'POST', body: '{"name":"Late","categoryId":1}' })
    const entry = await waiting
    expect(entry).toMatchObject({
      method: 'POST',
      path: '/v1/pets',
      status: 201,
      body: { name: 'Late', categoryId: 1 },
    })
  })

  it('requests.waitFor resolves with the oldest match', async () => {
    await api('/pets/1')
    await api('/pets/2')
    expect((await mock.requests.waitFor({ operation: 'getPet' })).path).toBe('/v1/pets/1')
    expect((await mock.requests.waitFor({ query: { limit: '3' } }, { timeoutMs: 0 }).catch((e) => e)).name).toBe(
      'RequestNotReceivedError',
    )
  })

  it('requests.waitFor lets the mock wait (after=&count=1&wait=): no polling, then rejects at timeoutMs listing what was received', async () => {
    await api('/pets?limit=3')
    await api('/pets/1')
    const urls: string[] = []
    // The client's clock moves only by the server's waits, so that what it asks to wait is exact.
    let now = Date.now()
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => now)
    const counted = createMockClient({
      baseUrl: server.url,
      adminToken,
      fetch: async (url, init) => {
        urls.push(url)
        const wait = new URL(url).searchParams.get('wait')
        const res = await checkedFetch(url, init)
        if (wait !== null) now += Number(wait.slice(0, -2))
        return res
      },
    })
    // Not before timeoutMs (a lower bound; load only makes it later); with intervalMs 10 a poller would
    // read some 30 times: here one read, one wait the mock ends with 408, one read of what was received.
    const error = await delayedAtLeast(295, () =>
      rejection(counted.requests.waitFor({ operation: 'getPet', status: 503 }, { timeoutMs: 300, intervalMs: 10 })),
    ).finally(() => clock.mockRestore())
    expect(urls).toHaveLength(3)
    const [first, waited, received] = urls.map((url) => new URL(url).searchParams)
    expect(Object.fromEntries(first!)).toEqual({ operation: 'getPet', status: '503' })
    expect(Object.fromEntries(waited!)).toMatchObject({ operation: 'getPet', status: '503', count: '1' })
    // The wait asked of the server is what is left of timeoutMs: all of it, as no time passed on the client's clock.
    expect(waited!.get('wait')).toBe('300ms')
    expect(Object.fromEntries(received!)).toEqual({ limit: '20' })
    expect(error).toBeInstanceOf(RequestNotReceivedError)
    // Journal ids keep counting across resets: read them from the entries.
    const [second, firstEntry] = error.received
    expect(second.id).toBe(firstEntry.id + 1)
    expect(waited!.get('after')).toBe('0')
    expect(error.message).toBe(
      `No request matched {"operation":"getPet","status":503} within 300 ms in session "default" of ${server.url}. ` +
        `Received, newest first:\n  #${second.id} GET /v1/pets/1 → 200 (getPet)\n` +
        `  #${firstEntry.id} GET /v1/pets?limit=3 → 200 (listPets)`,
    )
    expect(error.received).toHaveLength(2)
  })

  it('requests.waitFor resolves on the mock’s wait: one request per new candidate, the rest matched by the client', async () => {
    const urls: string[] = []
    const counted = createMockClient({
      baseUrl: server.url,
      adminToken,
      fetch: (url, init) => (urls.push(url), checkedFetch(url, init)),
    })
    await api('/pets', { method: 'POST', body: '{"name":"Before","categoryId":1}' })
    const waiting = counted.requests.waitFor(
      { operation: 'createPet', body: { name: 'Late' } },
      { timeoutMs: 5000, intervalMs: 10 },
    )
    await new Promise((resolve) => setTimeout(resolve, 200))
    await api('/pets', { method: 'POST', body: '{"name":"Early","categoryId":1}' })
    await new Promise((resolve) => setTimeout(resolve, 200))
    await api('/pets', { method: 'POST', body: '{"name":"Late","categoryId":1}' })
    const entry = await waiting
    expect(entry).toMatchObject({ method: 'POST', status: 201, body: { name: 'Late', categoryId: 1 } })
    // The first read, a wait woken by Early (the body is the client's to match), a wait woken by Late:
    // each wait reads on from the last entry seen.
    expect(urls.length).toBeLessThanOrEqual(3)
    const afters = urls.slice(1).map((url) => Number(new URL(url).searchParams.get('after')))
    expect(afters).toEqual(afters.toSorted((a, b) => a - b))
    expect(urls.slice(1).every((url) => new URL(url).searchParams.get('wait')?.endsWith('ms'))).toBe(true)
  })

  it('works on a session’s base URL, /sessions/<name> (issue 28): the same calls, that session only', async () => {
    const job = createMockClient({ baseUrl: `${server.url}/sessions/ci-job`, adminToken, fetch: checkedFetch })
    await job.faults.add({ operation: 'listPets', status: 503 })
    const api = bearer('key-1')
    expect((await fetch(`${server.url}/sessions/ci-job/v1/pets`, { headers: api })).status).toBe(503)
    expect((await fetch(`${server.url}/v1/pets`, { headers: api })).status).toBe(200)
    expect(await mock.faults.list()).toEqual([])
    const entry = await job.requests.waitFor({ operation: 'listPets', status: 503 }, { timeoutMs: 2000 })
    expect(entry.path).toBe('/v1/pets')
    // Waiting on a session nobody has used yet polls (its journal is empty, not an error).
    const quiet = createMockClient({ baseUrl: `${server.url}/sessions/not-yet`, adminToken })
    const error = await rejection(quiet.requests.waitFor({ operation: 'getPet' }, { timeoutMs: 50 }))
    expect(error.message).toContain('in session "not-yet"')
    expect(error.message).toContain('Its journal is empty')
  })

  it('requests.waitFor on an empty journal says so; a predicate is named', async () => {
    const error = await rejection(
      mock.withSession('quiet').requests.waitFor(
        function sentToBilling() {
          return true
        },
        { timeoutMs: 50 },
      ),
    )
    expect(error.message).toBe(
      `No request matched the predicate sentToBilling within 50 ms in session "quiet" of ${server.url}. ` +
        'Its journal is empty: did the code under test send its requests to this mock and session?',
    )
  })

  it('requests.waitFor stops on its signal and refuses bad timings', async () => {
    const controller = new AbortController()
    const waiting = mock.requests.waitFor({ operation: 'getPet' }, { timeoutMs: 10_000, signal: controller.signal })
    setTimeout(() => controller.abort(new Error('test over')), 100)
    expect((await rejection(waiting)).message).toBe('test over')
    await expect(mock.requests.waitFor({}, { timeoutMs: -1 })).rejects.toThrow(
      'timeoutMs must be between 0 and 600000 ms (got -1).',
    )
    await expect(mock.requests.waitFor({}, { intervalMs: 1 })).rejects.toThrow(RangeError)
  })

  it('clock.get/set/reset: the mock clock; past the sunset getPet is gone (410)', async () => {
    expect(await mock.clock.get()).toEqual({ now: expect.any(String), frozen: false, real: true })
    expect(await mock.clock.set({ now: new Date('2031-01-01T00:00:00Z'), frozen: true })).toEqual({
      now: '2031-01-01T00:00:00.000Z',
      frozen: true,
      real: false,
    })
    expect((await api('/pets/1')).status).toBe(410)
    expect(await mock.clock.set({ frozen: false })).toMatchObject({ frozen: false, real: false })
    expect(await mock.clock.reset()).toMatchObject({ frozen: false, real: true })
    expect((await api('/pets/1')).status).toBe(200)
  })

  it('rateLimit.get/set/clear: a per-key rate on /v1', async () => {
    expect(await mock.rateLimit.get()).toEqual({ rate: null })
    expect(await mock.rateLimit.set('2/m')).toEqual({ rate: '2/m', limit: 2, windowSeconds: 60, keys: 0 })
    const statuses = [(await api('/pets')).status, (await api('/pets')).status, (await api('/pets')).status]
    expect(statuses).toEqual([200, 200, 429])
    expect(await mock.rateLimit.get()).toMatchObject({ rate: '2/m', keys: 1 })
    expect(await mock.rateLimit.clear()).toEqual({ rate: null })
    expect((await api('/pets')).status).toBe(200)
  })

  it('deprecations(): who still calls getPet', async () => {
    await api('/pets/1')
    const [report] = await mock.deprecations()
    expect(report).toMatchObject({ operation: 'getPet', calls: 1, clients: [{ authorization: 'Bearer …', calls: 1 }] })
  })

  it('coverage(), clearCoverage(), pact() and providerState(): what the suite relied on, per session', async () => {
    const ci = mock.withSession('ci')
    await api('/pets', { session: 'ci' })
    await api('/pets/999', { session: 'ci' })
    const report = await ci.coverage()
    expect(report).toMatchObject({ session: 'ci', covered: 2, total: 8, percent: 25, requests: 2 })
    expect((await mock.coverage()).requests).toBe(0)
    const pact = await ci.pact({ consumer: 'web' })
    expect(pact.provider.name).toBe('Pet Store')
    expect(pact.interactions.map((i) => i.providerStates?.[0]?.name)).toEqual(['pets exist', 'no pet with id 999'])
    expect((await ci.pact({ consumer: 'web', provider: 'pets' })).provider.name).toBe('pets')
    await ci.providerState({ state: 'a pet with id 999 exists', params: { name: 'Late', categoryId: 1 } })
    expect((await api('/pets/999', { session: 'ci' })).status).toBe(200)
    const refused = await rejection(ci.providerState({ state: 'the moon is full' }))
    expect(refused).toBeInstanceOf(MockAdminError)
    expect(refused.status).toBe(400)
    await ci.clearCoverage()
    expect((await ci.coverage()).requests).toBe(0)
    expect((await ci.pact({ consumer: 'web' })).interactions).toEqual([])
  })

  it('sessions.list/delete and withSession: isolated worlds', async () => {
    const job = mock.withSession('job-1')
    expect(job.session).toBe('job-1')
    await job.faults.add({ operation: 'listPets', status: 503 })
    await job.state.put([{ id: 1, name: 'Only', categoryId: 1 }])
    expect((await api('/pets', { session: 'job-1' })).status).toBe(503)
    expect((await api('/pets')).status).toBe(200)
    expect(await mock.faults.list()).toEqual([])
    expect(await job.requests.count()).toBe(1)
    expect(await mock.sessions.list()).toEqual([
      { name: 'default', pets: 12, faults: 0, requests: 1 },
      { name: 'job-1', pets: 1, faults: 1, requests: 1 },
    ])
    await mock.sessions.delete('job-1')
    expect((await mock.sessions.list()).map((s) => s.name)).toEqual(['default'])
  })
})

describe('failures throw MockAdminError with the Error body', () => {
  it.each([
    [
      'a bad rule → 400',
      () => mock.faults.add({ status: 200 }),
      400,
      'bad_request',
      'status must be an integer between 400 and 599.',
    ],
    [
      'an unknown field → 400',
      () => mock.faults.add({ status: 500, bogus: 1 } as never),
      400,
      'bad_request',
      'bogus is not a known field.',
    ],
    ['an unknown rule → 404', () => mock.faults.remove(42), 404, 'not_found', 'No fault rule with id 42.'],
    [
      'a bad pet → 400',
      () => mock.state.put([{ id: 0, name: 'x', categoryId: 1 }]),
      400,
      'bad_request',
      'state: entry 0: id must be a positive integer (got 0).',
    ],
    [
      'a bad clock → 400',
      () => mock.clock.set({ now: 'tomorrow' }),
      400,
      'bad_request',
      'now must be an ISO 8601 instant with a time zone, e.g. 2030-12-05T00:00:00Z (got "tomorrow").',
    ],
    [
      'a bad rate → 400',
      () => mock.rateLimit.set('lots'),
      400,
      'bad_request',
      'rate must be <n>/<window>: n from 1 to 1000000, the window s, m or h with an optional count (at most 24h), e.g. 100/m or 10/30s (got "lots").',
    ],
    [
      'a bad seed → 400',
      () => mock.seed({ count: -1 }),
      400,
      'bad_request',
      'count must be an integer between 0 and 100000.',
    ],
    [
      'an unknown operation filter → 400',
      () => mock.requests.list({ operation: 'deletePet' }),
      400,
      'bad_request',
      'operation must be one of listPets, createPet, getPet (got "deletePet").',
    ],
    ['an unknown session → 404', () => mock.sessions.delete('nope'), 404, 'not_found', 'No session named nope.'],
    [
      'the default session → 400',
      () => mock.sessions.delete('default'),
      400,
      'bad_request',
      'The default session cannot be deleted; use POST /__admin/reset.',
    ],
    [
      'a bad session name → 400',
      () => mock.withSession('a b').reset(),
      400,
      'bad_request',
      'X-Mock-Session must be 1 to 64 of A-Z a-z 0-9 . _ -, not . or .. (got "a b").',
    ],
    [
      'a wrong admin token → 401',
      () => createMockClient({ baseUrl: server.url, adminToken: 'wrong-token' }).faults.list(),
      401,
      'unauthorized',
      undefined,
    ],
    [
      'no admin token → 401',
      () => createMockClient({ baseUrl: server.url }).requests.clear(),
      401,
      'unauthorized',
      undefined,
    ],
  ] as const)('%s', async (_, call, status, code, message) => {
    const error = await rejection(call())
    expect(error).toBeInstanceOf(MockAdminError)
    expect(error).toMatchObject({ name: 'MockAdminError', status, code })
    expect(error.body).toEqual({ code, status, message: message ?? expect.any(String) })
    expect(error.message).toMatch(
      new RegExp(`^(GET|POST|PUT|DELETE) ${server.url}/__admin/\\S+ answered ${status} ${code}: `),
    )
  })

  it('names the method and URL', async () => {
    const error = await rejection(mock.faults.remove(42))
    expect(error.message).toBe(
      `DELETE ${server.url}/__admin/faults/42 answered 404 not_found: No fault rule with id 42.`,
    )
    expect(error).toMatchObject({ method: 'DELETE', url: `${server.url}/__admin/faults/42` })
  })

  it('an answer that is not an Error body → code unexpected_response', async () => {
    const html: FetchLike = async () => new Response('<h1>Bad Gateway</h1>', { status: 502 })
    const error = await rejection(createMockClient({ baseUrl: server.url, fetch: html }).health())
    expect(error).toMatchObject({ status: 502, code: 'unexpected_response' })
    expect(error.body.message).toBe('The answer is not a petstore-mock Error body: "<h1>Bad Gateway</h1>"')
  })

  it('an unreachable mock → an Error naming the URL; a bad baseUrl → TypeError', async () => {
    const error = await rejection(createMockClient({ baseUrl: 'http://127.0.0.1:9' }).health())
    expect(error.message).toMatch(/^petstore-mock did not answer GET http:\/\/127\.0\.0\.1:9\/__admin\/health: /)
    expect(() => createMockClient({ baseUrl: 'localhost:4010' })).toThrow(TypeError)
    expect(() => createMockClient({ baseUrl: 'ftp://x' })).toThrow('baseUrl must be an http(s) URL (got "ftp://x").')
  })
})

describe('HAR and snapshots (GET /__admin/requests.har, GET/PUT /__admin/snapshot)', () => {
  const validateHar = createRequire(import.meta.url)('har-validator').har as (har: unknown) => Promise<unknown>

  it('requests.har: HAR 1.2 of the journal, oldest first, filtered like list', async () => {
    await api('/pets?limit=1')
    await api('/pets', { method: 'POST', body: '{"name":"Har","categoryId":1}' })
    const har = await mock.requests.har()
    await expect(validateHar(har)).resolves.toBeTruthy()
    expect(har.log.creator).toEqual({ name: 'petstore-mock', version: packageVersion })
    expect(har.log.entries.map((e) => `${e.request.method} ${e.response.status}`)).toEqual(['GET 200', 'POST 201'])
    expect(har.log.entries[1]?.request.postData?.text).toBe('{"name":"Har","categoryId":1}')
    const filtered = await mock.requests.har({ operation: 'createPet' })
    expect(filtered.log.entries).toHaveLength(1)
  })

  it('snapshot.get/put restore a whole world, from JSON or from YAML text', async () => {
    await mock.faults.add({ operation: 'listPets', status: 503, times: 2 })
    await api('/pets', { method: 'POST', body: '{"name":"Kept","categoryId":1}' })
    const snapshot = await mock.snapshot.get()
    expect(snapshot).toMatchObject({ format: 1, petstoreMock: packageVersion, nextId: 14, nextFaultId: 2 })
    expect(snapshot.pets.at(-1)).toEqual({ id: 13, name: 'Kept', categoryId: 1 })
    const yaml = await mock.snapshot.yaml()
    expect(yaml).toMatch(/^format: 1\n/)

    await mock.reset()
    await mock.snapshot.put(snapshot)
    expect(await mock.snapshot.get()).toEqual(snapshot)
    expect(await mock.faults.list()).toEqual([{ id: 1, operation: 'listPets', status: 503, times: 2, remaining: 2 }])

    await mock.reset()
    await mock.snapshot.put(yaml)
    expect(await mock.snapshot.get()).toEqual(snapshot)
    await mock.snapshot.put({ format: 1, pets: [{ id: 4, name: 'Min', categoryId: 2 }] })
    expect(await mock.state.get()).toEqual([{ id: 4, name: 'Min', categoryId: 2 }])
  })

  it('a bad snapshot is a MockAdminError 400 naming the field, and changes nothing', async () => {
    const before = await mock.snapshot.get()
    const error = await rejection(mock.snapshot.put({ ...before, nextId: 1 }))
    expect(error).toBeInstanceOf(MockAdminError)
    expect(error.body).toEqual({
      code: 'bad_request',
      message: 'nextId must be greater than the largest pet id (12).',
      status: 400,
    })
    expect((await rejection(mock.snapshot.put('format: 2\npets: []\n'))).status).toBe(400)
    expect(await mock.snapshot.get()).toEqual(before)
  })

  it('requests.waitFor matches request headers, names in any case', async () => {
    await checkedFetch(`${server.url}/v1/pets`, { headers: { ...bearer(), 'X-Request-Id': 'abc-1' } })
    const entry = await mock.requests.waitFor({ headers: { 'X-Request-ID': 'abc-1' } }, { timeoutMs: 1000 })
    expect(entry.headers['x-request-id']).toBe('abc-1')
    expect(entry.response?.status).toBe(200)
    expect(await mock.requests.count({ headers: { 'x-request-id': 'other' } })).toBe(0)
  })
})
