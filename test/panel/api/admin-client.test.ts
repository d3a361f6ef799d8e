import { afterEach, describe, expect, it, vi } from 'vitest'
import { createApp } from '../../../src/index.js'
import { MockAdminError } from '../../../src/client/mock-admin-error.js'
import { type AdminClient, adminClient, adminErrorText } from '../../../src/panel/api/admin-client.js'
import { type TokenPrompt, TokenBroker, tokenStorageKey } from '../../../src/panel/api/token-broker.js'

const memoryStorage = () => {
  const items = new Map<string, string>()
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    items,
  }
}

const origin = 'http://127.0.0.1:4010'
const faultsOf = (client: AdminClient) => client.call((mock) => mock.faults.list())

/** The panel's fetch() answered by a real app, every call recorded. */
const serve = (options: Parameters<typeof createApp>[0] = {}) => {
  const app = createApp(options)
  const calls: { method: string; path: string; headers: Headers }[] = []
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    calls.push({ method: init.method ?? 'GET', path: url.replace(origin, ''), headers: new Headers(init.headers) })
    return app.request(url, init)
  })
  return calls
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('adminClient', () => {
  it('names its session in X-Mock-Session on every call', async () => {
    const calls = serve()
    const client = adminClient('job-42', new TokenBroker(), origin)
    await client.call((mock) => mock.faults.add({ status: 503 }))
    expect(await faultsOf(client)).toEqual([{ id: 1, status: 503 }])
    expect(calls.map((c) => c.headers.get('X-Mock-Session'))).toEqual(['job-42', 'job-42', 'job-42'])
    expect(await faultsOf(adminClient('default', new TokenBroker(), origin))).toEqual([])
  })

  it('opens a session no request has made yet before reading it: its rules, pets and journal, not a 404', async () => {
    const calls = serve()
    const client = adminClient('brand-new', new TokenBroker(), origin)
    const [rules, pets, requests, coverage, clock, rate] = await Promise.all([
      faultsOf(client),
      client.call((mock) => mock.state.get()),
      client.call((mock) => mock.requests.list()),
      client.call((mock) => mock.coverage()),
      client.call((mock) => mock.clock.get()),
      client.call((mock) => mock.rateLimit.get()),
    ])
    expect({ rules, pets: pets.length, requests, session: coverage.session }).toEqual({
      rules: [],
      pets: 12,
      requests: [],
      session: 'brand-new',
    })
    expect({ frozen: clock.frozen, rate: rate.rate }).toEqual({ frozen: false, rate: null })
    // One open, first; every read after it.
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/__admin/sessions/brand-new' })
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1)
    expect(calls).toHaveLength(7)
  })

  it('opens an existing session without changing it, and tries the open again after a failure', async () => {
    const calls = serve({ maxSessions: 1 })
    expect(await faultsOf(adminClient('first', new TokenBroker(), origin))).toEqual([])
    const full = adminClient('second', new TokenBroker(), origin)
    const refused = await faultsOf(full).catch((e: unknown) => e)
    expect(refused).toMatchObject({ status: 503 })
    const client = adminClient('default', new TokenBroker(), origin)
    await client.call((mock) => mock.faults.add({ status: 503 }))
    expect(await adminClient('default', new TokenBroker(), origin).call((mock) => mock.faults.list())).toHaveLength(1)
    await expect(faultsOf(full)).rejects.toMatchObject({ status: 503 })
    expect(calls.filter((c) => c.path === '/__admin/sessions/second')).toHaveLength(2)
  })

  it('reads with a token that may not open the session (read-only, a tenant’s read token): the open’s 403 is not the reads’', async () => {
    const calls = serve({ adminTokens: ['root', 'qa=*:read'] })
    const root = new TokenBroker(memoryStorage())
    root.provide('root')
    await adminClient('job-1', root, origin).call((mock) => mock.faults.add({ status: 503 }))
    const reader = new TokenBroker(memoryStorage())
    reader.provide('qa')
    const client = adminClient('job-1', reader, origin)
    expect(await faultsOf(client)).toEqual([{ id: 1, status: 503 }])
    expect((await client.call((mock) => mock.sessions.list())).map((s) => s.name)).toContain('job-1')
    // Opened once (refused), not again for each read; a change still fails with the server's words.
    const asReader = calls.filter((c) => c.headers.get('Authorization') === 'Bearer qa')
    expect(asReader.filter((c) => c.method === 'POST')).toHaveLength(1)
    await expect(client.call((mock) => mock.faults.clear())).rejects.toMatchObject({ status: 403 })
  })

  it('fails with the server’s own words', async () => {
    serve()
    const failure = await adminClient('default', new TokenBroker(), origin)
      .call((mock) => mock.faults.add({ status: 200 }))
      .catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(MockAdminError)
    expect(adminErrorText(failure)).toBe('status must be an integer between 400 and 599.')
    expect(failure).toMatchObject({ status: 400 })
  })

  it('on 401 asks for the token once for every call refused at the same time, keeps it, retries', async () => {
    const calls = serve({ adminToken: 's3cret' })
    const storage = memoryStorage()
    const tokens = new TokenBroker(storage)
    const prompts: (TokenPrompt | undefined)[] = []
    tokens.subscribe((prompt) => {
      prompts.push(prompt)
      if (prompt) setTimeout(() => tokens.provide('s3cret'), 5)
    })
    const client = adminClient('default', tokens, origin)
    const [faults, sessions] = await Promise.all([faultsOf(client), client.call((mock) => mock.sessions.list())])
    expect(faults).toEqual([])
    expect(sessions).toMatchObject([{ name: 'default' }])
    expect(prompts).toEqual([
      { message: 'Missing admin token; send Authorization: Bearer <admin token>.', refused: false },
      undefined,
    ])
    expect(storage.items.get(tokenStorageKey)).toBe('s3cret')
    // The session's open (once, for both calls), then the two reads.
    expect(calls.filter((c) => c.headers.get('Authorization') === 'Bearer s3cret')).toHaveLength(3)
    // The next call, and a panel opened later in the tab, send it without asking.
    await faultsOf(client)
    expect(new TokenBroker(storage).token).toBe('s3cret')
    expect(prompts).toHaveLength(2)
  })

  it('asks again with the server’s words when the token is wrong', async () => {
    serve({ adminToken: 's3cret' })
    const tokens = new TokenBroker()
    const prompts: TokenPrompt[] = []
    tokens.subscribe((prompt) => {
      if (!prompt) return
      prompts.push(prompt)
      setTimeout(() => tokens.provide(prompts.length === 1 ? 'wrong' : 's3cret'), 5)
    })
    expect(await faultsOf(adminClient('default', tokens, origin))).toEqual([])
    expect(prompts).toEqual([
      { message: 'Missing admin token; send Authorization: Bearer <admin token>.', refused: false },
      { message: 'Invalid admin token.', refused: true },
    ])
  })

  it('a dismissed prompt fails the waiting calls with the 401 message', async () => {
    serve({ adminToken: 's3cret' })
    const tokens = new TokenBroker()
    tokens.subscribe((prompt) => prompt && setTimeout(() => tokens.dismiss(), 5))
    const failure = await faultsOf(adminClient('default', tokens, origin)).catch((e: unknown) => e)
    expect(failure).toMatchObject({ status: 401 })
    expect(adminErrorText(failure)).toBe('Missing admin token; send Authorization: Bearer <admin token>.')
  })

  it('works when storage refuses to be used', async () => {
    serve({ adminToken: 's3cret' })
    const broken = {
      getItem: () => {
        throw new Error('SecurityError')
      },
      setItem: () => {
        throw new Error('QuotaExceededError')
      },
    }
    const tokens = new TokenBroker(broken)
    tokens.subscribe((prompt) => prompt && setTimeout(() => tokens.provide('s3cret'), 5))
    expect(await faultsOf(adminClient('default', tokens, origin))).toEqual([])
  })
})
