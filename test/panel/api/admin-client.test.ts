import { afterEach, describe, expect, it, vi } from 'vitest'
import { createApp } from '../../../src/index.js'
import { AdminError, adminClient } from '../../../src/panel/api/admin-client.js'
import { type TokenPrompt, TokenBroker, tokenStorageKey } from '../../../src/panel/api/token-broker.js'

const memoryStorage = () => {
  const items = new Map<string, string>()
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    items,
  }
}

/** The panel's fetch() answered by a real app, every call recorded. */
const serve = (options: Parameters<typeof createApp>[0] = {}) => {
  const app = createApp(options)
  const calls: { path: string; headers: Headers }[] = []
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    calls.push({ path: url, headers: new Headers(init.headers) })
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
    const client = adminClient('job-42', new TokenBroker())
    await client.send('POST', '/faults', { status: 503 })
    expect(await client.json('/faults')).toEqual({ faults: [{ id: 1, status: 503 }] })
    expect(calls.map((c) => c.headers.get('X-Mock-Session'))).toEqual(['job-42', 'job-42'])
    expect(await adminClient('default', new TokenBroker()).json('/faults')).toEqual({ faults: [] })
  })

  it('fails with the server’s own words', async () => {
    serve()
    const failure = await adminClient('default', new TokenBroker())
      .send('POST', '/faults', { status: 200 })
      .catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(AdminError)
    expect(failure).toMatchObject({ status: 400, message: 'status must be an integer between 400 and 599.' })
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
    const client = adminClient('default', tokens)
    const [faults, sessions] = await Promise.all([client.json('/faults'), client.json('/sessions')])
    expect(faults).toEqual({ faults: [] })
    expect(sessions).toMatchObject({ sessions: [{ name: 'default' }] })
    expect(prompts).toEqual([
      { message: 'Missing admin token; send Authorization: Bearer <admin token>.', refused: false },
      undefined,
    ])
    expect(storage.items.get(tokenStorageKey)).toBe('s3cret')
    expect(calls.filter((c) => c.headers.get('Authorization') === 'Bearer s3cret')).toHaveLength(2)
    // The next call, and a panel opened later in the tab, send it without asking.
    await client.json('/faults')
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
    expect(await adminClient('default', tokens).json('/faults')).toEqual({ faults: [] })
    expect(prompts).toEqual([
      { message: 'Missing admin token; send Authorization: Bearer <admin token>.', refused: false },
      { message: 'Invalid admin token.', refused: true },
    ])
  })

  it('a dismissed prompt fails the waiting calls with the 401 message', async () => {
    serve({ adminToken: 's3cret' })
    const tokens = new TokenBroker()
    tokens.subscribe((prompt) => prompt && setTimeout(() => tokens.dismiss(), 5))
    const failure = await adminClient('default', tokens)
      .json('/faults')
      .catch((e: unknown) => e)
    expect(failure).toMatchObject({
      status: 401,
      message: 'Missing admin token; send Authorization: Bearer <admin token>.',
    })
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
    expect(await adminClient('default', tokens).json('/faults')).toEqual({ faults: [] })
  })
})
