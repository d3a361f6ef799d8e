import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { fakePets } from '../../src/core/pets/seed.js'
import { MockAdminError } from '../../src/client/index.js'
import { createHandlers, type HandlersOptions, PetstoreMockError } from '../../src/msw/index.js'
import { delayedAtLeast } from '../helpers/asked-delay.js'
import { auth, postJson } from '../helpers/contract.js'
import { fetchChecked as request } from '../helpers/msw.js'
import { onePet } from '../helpers/fixtures.js'
import { bearer } from '../helpers/auth.js'

describe('createHandlers options', () => {
  it.each<[HandlersOptions, string]>([
    [{ maxPets: -1 }, 'maxPets must be an integer between 0 and 100000000 (got -1)'],
    [{ journalSize: 1.5 }, 'journalSize must be an integer between 0 and 1000000 (got 1.5)'],
    [{ seed: 2 ** 32 }, 'seed must be an integer between 0 and 4294967295 (got 4294967296)'],
    [{ maxSessions: 0 }, 'maxSessions must be an integer between 1 and 100000 (got 0)'],
    [{ bodyLimit: 0 }, 'bodyLimit must be an integer between 1 and 1073741824 (got 0)'],
    [{ delay: 60_001 }, 'delay must be milliseconds from 0 to 60000, or { min, max } with min ≤ max (got 60001)'],
    [{ delay: { min: 5, max: 1 } }, 'delay must be milliseconds from 0 to 60000'],
    [{ apiKeys: ['ok', ''] }, 'apiKeys: entry 1 must be a non-empty string'],
    [{ adminToken: '' }, 'adminToken must be a non-empty string'],
    [{ pets: [{ id: 1, name: 'a' } as never] }, 'pets: entry 0: categoryId is required'],
    [
      {
        pets: [
          { id: 1, name: 'a', categoryId: 1 },
          { id: 1, name: 'b', categoryId: 1 },
        ],
      },
      'pets: entry 1: id 1 is already used by entry 0',
    ],
    [{ pets: onePet(), maxPets: 0 }, 'pets: 1 pets exceed maxPets 0'],
    [{ faults: [{ status: 503 }, { status: 200 }] }, 'faults: entry 1: status must be an integer between 400 and 599'],
    [{ faults: [{ operation: 'deletePet', status: 500 }] }, 'faults: entry 0: operation must be one of listPets'],
    [{ faults: [{ fault: 'boom' } as never] }, 'faults: entry 0: fault must be one of connection_reset'],
    [{ faults: {} as never }, 'faults: must be an array of fault rules'],
    [{ faker: { count: -1 } }, 'faker.count must be an integer between 0 and 10000000 (got -1)'],
    [{ faker: { count: 10 }, maxPets: 5 }, 'faker.count 10 exceeds maxPets 5'],
    [{ faker: { data: 'weird' as never } }, 'faker.data must be one of realistic, edge (got "weird")'],
    [{ faker: {}, pets: [] }, 'pets and faker cannot be combined'],
    [{ rateLimit: { limit: 0, windowSeconds: 60 } }, 'rateLimit.limit must be an integer from 1'],
    [{ clock: 'soon' }, 'clock must be'],
    [{ clock: 'soon', faker: { count: 1 } }, 'clock must be'],
    // msw takes no tenants (one app per page or test); refused, not ignored, when JavaScript passes them anyway.
    [
      { tenants: [] } as never,
      "tenants: not taken here: tenants share one server (the Node host's --tenants, or createApp)",
    ],
    [{ baseUrl: '/api' }, 'baseUrl must be an absolute URL such as http://localhost:4010 (got "/api")'],
    [
      { baseUrl: 'http://localhost:4010/api' },
      'baseUrl must be an origin such as http://localhost:4010, optionally followed by /v1',
    ],
  ])('%j → %s', (options, message) => {
    expect(() => createHandlers({ origins: 'any', ...options })).toThrow(PetstoreMockError)
    expect(() => createHandlers({ origins: 'any', ...options })).toThrow(`petstore-mock/msw: ${message}`)
  })
})

describe('controls without HTTP', () => {
  it('reset() brings every session back and drops named ones; reset({ session }) only that one', async () => {
    const handlers = createHandlers({ origins: 'any', pets: onePet() })
    await handlers.setPets([], { session: 'x' })
    await handlers.setPets([{ id: 7, name: 'b', categoryId: 2 }])
    await handlers.addFault({ status: 500 })
    await handlers.reset({ session: 'x' })
    expect(await handlers.pets({ session: 'x' })).toEqual([{ id: 1, name: 'a', categoryId: 1 }])
    expect(await handlers.pets()).toEqual([{ id: 7, name: 'b', categoryId: 2 }])
    await handlers.reset()
    expect(await handlers.pets()).toEqual([{ id: 1, name: 'a', categoryId: 1 }])
    expect(await handlers.faults()).toEqual([])
  })

  it.each<[string, (h: ReturnType<typeof createHandlers>) => Promise<unknown>, string]>([
    ['addFault', (h) => h.addFault({ status: 200 }), 'addFault: status must be an integer between 400 and 599'],
    [
      'setPets',
      (h) => h.setPets([{ id: 0, name: 'a', categoryId: 1 }]),
      'setPets: state: entry 0: id must be a positive',
    ],
    [
      'session',
      (h) => h.pets({ session: 'a b' }),
      'pets: A session name is 1 to 64 of A-Z a-z 0-9 . _ -, not . or .. (got "a b")',
    ],
    ['journal', (h) => h.journal({ operation: 'deletePet' }), 'journal: operation must be one of listPets'],
  ])('refuses a bad %s argument', async (_, call, message) => {
    await expect(call(createHandlers({ origins: 'any' }))).rejects.toThrow(`petstore-mock/msw: ${message}`)
  })

  it('setPets beyond maxPets is refused and changes nothing', async () => {
    const handlers = createHandlers({ origins: 'any', maxPets: 1 })
    const two = [
      { id: 1, name: 'a', categoryId: 1 },
      { id: 2, name: 'b', categoryId: 1 },
    ]
    await expect(handlers.setPets(two)).rejects.toThrow(
      'setPets: 2 pets exceed the capacity of 1; nothing was replaced.',
    )
    expect(await handlers.pets()).toHaveLength(12)
  })
})

describe('the typed client over the mock in this process (handlers.client)', () => {
  it('is petstore-mock/client: the same calls, answers and MockAdminError as over HTTP, each session its own', async () => {
    const handlers = createHandlers({ origins: 'any', adminToken: 'secret-admin-token' })
    expect(handlers.client.baseUrl).toBe('http://127.0.0.1')
    const rule = await handlers.client.faults.add({ operation: 'getPet', status: 503, times: 1 })
    expect(rule).toEqual({ id: 1, operation: 'getPet', status: 503, times: 1, remaining: 1 })
    expect(await handlers.faults()).toEqual([rule])
    const team = handlers.client.withSession('team-a')
    // As over HTTP, an admin read of a session nothing made yet is a 404; a change, or open(), makes it.
    await expect(team.faults.list()).rejects.toMatchObject({ status: 404, code: 'session_not_found' })
    await team.state.put([{ id: 3, name: 'c', categoryId: 1 }])
    expect(await team.faults.list()).toEqual([])
    // The flat calls make the session they name, as they always did.
    expect(await handlers.faults({ session: 'team-b' })).toEqual([])
    expect(await handlers.pets({ session: 'team-a' })).toEqual([{ id: 3, name: 'c', categoryId: 1 }])
    const refused = await handlers.client.faults.add({ status: 200 }).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(MockAdminError)
    expect(refused).toMatchObject({ status: 400, code: 'bad_request' })
    // The flat (deprecated) calls say the same words: the rule is checked once, by the admin route.
    await expect(handlers.addFault({ status: 200 })).rejects.toThrow(
      `petstore-mock/msw: addFault: ${(refused as MockAdminError).body.message}`,
    )
    expect(await handlers.removeFault(9)).toBe(false)
    expect((await handlers.client.sessions.list()).map((s) => s.name).sort()).toEqual(['default', 'team-a', 'team-b'])
  })

  it('sends the admin token the options name, scoped tokens aside', async () => {
    const handlers = createHandlers({ origins: 'any', adminTokens: ['ro-secret-1234:read', 'full-secret-1234'] })
    expect(await handlers.client.faults.add({ status: 500 })).toMatchObject({ id: 1 })
  })
})

describe('matching, faker and latency in setupServer', () => {
  let real: Server
  let realOrigin: string
  const unhandled: string[] = []
  const server = setupServer()
  beforeAll(async () => {
    real = createServer((req, res) => res.end(`real ${req.url}`))
    await new Promise<void>((resolve) => real.listen(0, '127.0.0.1', resolve))
    realOrigin = `http://127.0.0.1:${(real.address() as AddressInfo).port}`
    server.listen({
      onUnhandledFrame: ({ frame }) => void unhandled.push((frame.data as { request: Request }).request.url),
    })
  })
  afterAll(async () => {
    server.close()
    await new Promise((resolve) => real.close(resolve))
  })

  it('answers the mock paths on any origin and leaves every other path to onUnhandledFrame', async () => {
    server.resetHandlers(...createHandlers({ origins: 'any' }))
    unhandled.length = 0
    expect((await fetch(`${realOrigin}/v1/pets`, { headers: auth() })).status).toBe(200)
    expect((await fetch(`${realOrigin}/__admin/health`)).status).toBe(200)
    expect(await (await fetch(`${realOrigin}/v1`)).text()).toBe('real /v1')
    expect(await (await fetch(`${realOrigin}/openapi.yml`)).text()).toBe('real /openapi.yml')
    expect(await (await fetch(`${realOrigin}/app/v1/pets`)).text()).toBe('real /app/v1/pets')
    expect(unhandled).toEqual([`${realOrigin}/v1`, `${realOrigin}/openapi.yml`, `${realOrigin}/app/v1/pets`])
  })

  it('answers when the task that registers the routes after createHandlers has not run (fake timers)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] })
    const handlers = createHandlers({ origins: 'any' })
    await Promise.resolve()
    expect(vi.getTimerCount()).toBe(1)
    // Dropped with the fake clock: the routes are registered by the first request instead.
    vi.useRealTimers()
    server.resetHandlers(...handlers)
    expect(await handlers.pets()).toHaveLength(12)
    const res = await fetch(`${realOrigin}/v1/pets?limit=1`, { headers: auth() })
    expect(res.status).toBe(200)
    expect(await res.json()).toHaveLength(1)
  })

  it('with baseUrl, answers that origin only (there is no page in Node)', async () => {
    server.resetHandlers(...createHandlers({ baseUrl: 'http://petstore.test/v1/' }))
    unhandled.length = 0
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(200)
    expect(await (await fetch(`${realOrigin}/v1/pets`)).text()).toBe('real /v1/pets')
    expect(unhandled).toEqual([`${realOrigin}/v1/pets`])
  })

  it('seeds faker pets (same as the server with --faker --count --seed), awaited before the first request', async () => {
    const handlers = createHandlers({ origins: 'any', faker: { count: 5, seed: 3 } })
    server.resetHandlers(...handlers)
    const listed = await (await request('/v1/pets', { headers: auth() })).json()
    expect(listed).toEqual(await fakePets(5, 3))
    expect(await (await request('/v1/pets', postJson({ name: 'n', categoryId: 1 }))).json()).toMatchObject({ id: 6 })
    await handlers.reset()
    expect(await handlers.pets()).toEqual(listed)
  })

  it('seeds the edge data profile with faker: { data: "edge" }, as the server with --faker --data edge', async () => {
    const handlers = createHandlers({ origins: 'any', faker: { count: 20, seed: 3, data: 'edge' } })
    server.resetHandlers(...handlers)
    // `request` checks the answer against the contract.
    const listed = await (await request('/v1/pets?limit=20', { headers: auth() })).json()
    expect(listed).toEqual(await fakePets(20, 3, 'edge'))
  })

  it('delays /v1 answers by `delay` and journals it', async () => {
    const handlers = createHandlers({ origins: 'any', delay: 30 })
    server.resetHandlers(...handlers)
    expect((await delayedAtLeast(29, () => request('/v1/pets', { headers: auth() }))).status).toBe(200)
    expect((await handlers.journal())[0]!.shapedBy).toEqual([{ by: 'latency', delayMs: 30 }])
  })

  it('leaves the DNS-rebinding Host check off unless allowedHosts is given; refuses foreign pages on /__admin', async () => {
    server.resetHandlers(...createHandlers({ origins: 'any' }))
    expect((await request('/__admin/faults')).status).toBe(200)
    const foreign = await request('/__admin/faults', { headers: { Origin: 'http://elsewhere.test' } })
    expect(foreign.status).toBe(403)
    server.resetHandlers(...createHandlers({ origins: 'any', allowedHosts: ['localhost'] }))
    const refused = await request('/__admin/faults')
    expect(refused.status).toBe(403)
    expect((await refused.json()).message).toContain('Host "petstore.test" is not allowed on /__admin')
    expect((await request('/__admin/health')).status).toBe(200)
  })

  it("passes the app's other options through: a clock past getPet's sunset, a rate limit", async () => {
    server.resetHandlers(
      ...createHandlers({ origins: 'any', clock: '2031-01-01T00:00:00Z', rateLimit: { limit: 2, windowSeconds: 60 } }),
    )
    expect((await request('/v1/pets/1', { headers: auth() })).status).toBe(410)
    const second = await request('/v1/pets', { headers: auth() })
    expect(second.status).toBe(200)
    expect(second.headers.get('ratelimit')).toMatch(/r=0/)
    const third = await request('/v1/pets', { headers: auth() })
    expect(third.status).toBe(429)
    expect(third.headers.get('retry-after')).toMatch(/^[0-9]+$/)
  })

  it('guards /__admin with adminToken and installs start-up faults', async () => {
    const handlers = createHandlers({
      origins: 'any',
      adminToken: 'admin-secret',
      faults: [{ operation: 'getPet', status: 502 }],
    })
    server.resetHandlers(...handlers)
    expect((await request('/__admin/faults')).status).toBe(401)
    const listed = await request('/__admin/faults', { headers: bearer('admin-secret') })
    expect(await listed.json()).toEqual({ faults: [{ id: 1, operation: 'getPet', status: 502 }] })
    expect((await request('/v1/pets/1', { headers: auth() })).status).toBe(502)
  })
})
