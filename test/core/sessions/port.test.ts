import { describe, expect, it } from 'vitest'
import { createApp, prepareMock } from '../../../src/core/app.js'
import type { SessionState, SessionStore } from '../../../src/core/sessions/port.js'
import { SessionRegistry } from '../../../src/core/sessions/memory-store.js'
import { runScenario as run, scenario } from '../../helpers/port-scenario.js'
import { bearer } from '../../helpers/auth.js'

/** Every call of the port answers later, as a networked store (Redis) would; `calls` counts them. */
const later = <T extends object>(target: T, calls: Map<string, number>): T =>
  new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key, object)
      if (typeof value !== 'function' || typeof key !== 'string') return value
      // A backend that cannot tell without a round trip whether a session has rules says it may.
      if (key === 'mayFault') return () => true
      return (...args: unknown[]) => {
        const result: unknown = value.apply(object, args)
        // Subscriptions and close are local to a replica on any backend.
        if (key === 'subscribe' || key === 'close') return result
        calls.set(key, (calls.get(key) ?? 0) + 1)
        return Promise.resolve(result).then((answer) => wrap(answer, calls))
      }
    },
  })

const wrap = (answer: unknown, calls: Map<string, number>): unknown => {
  if (answer instanceof Array) return answer.map((item) => wrap(item, calls))
  // A selection that made its session (sessions/lifecycle.ts): the session inside answers later too.
  if (answer !== null && typeof answer === 'object' && 'outcome' in answer && 'session' in answer)
    return { ...answer, session: wrap(answer.session, calls) }
  return answer !== null && typeof answer === 'object' && 'takeFault' in answer
    ? later(answer as SessionState, calls)
    : answer
}

const asyncStore = (calls: Map<string, number>) =>
  prepareMock({ seed: 7, delay: { min: 0, max: 0 } }, (start, max) =>
    later<SessionStore>(new SessionRegistry(start, max), calls),
  ).build()

describe('the state port', () => {
  it('an asynchronous backend goes through the same stages and answers exactly as the in-memory one', async () => {
    const calls = new Map<string, number>()
    const memory = createApp({ seed: 7, delay: { min: 0, max: 0 } })
    const expected = await run(memory)
    const got = await run(asyncStore(calls))
    // The scenario reaches every control: a counted rule (503 once), seeded draws, a rate limit (429).
    expect(got.map((answer) => answer.status)).toEqual([
      200, 201, 201, 200, 201, 201, 503, 200, 200, 500, 200, 200, 200, 200, 200, 429, 200, 200, 200, 200, 200, 204, 204,
      404,
    ])
    for (const [i, answer] of got.entries())
      expect({ step: scenario[i], ...answer }).toEqual({ step: scenario[i], ...expected[i] })
    // The request path asked the port, not a backend's parts.
    for (const method of [
      'select',
      'createPet',
      'getPet',
      'listPets',
      'takeFault',
      'drawLatency',
      'hitRateLimit',
      'record',
    ])
      expect(calls.get(method), method).toBeGreaterThan(0)
  })

  it('the in-memory backend answers now: a request that waits for nothing gets no promise', async () => {
    const app = createApp()
    const request = () => app.fetch(new Request('http://localhost/v1/pets/1', { headers: bearer() }))
    // The first pass through authentication is a hono middleware (asynchronous); its verdict is then remembered.
    expect(await request()).toHaveProperty('status', 200)
    const res = request()
    expect(res).toBeInstanceOf(Response)
    expect((res as Response).status).toBe(200)
  })

  it('journals each answer of the asynchronous backend once it is stored', async () => {
    const calls = new Map<string, number>()
    const app = asyncStore(calls)
    await app.request('/v1/pets/1', { headers: bearer() })
    const res = await app.request('/__admin/requests')
    const { requests } = (await res.json()) as { requests: { path: string; status: number }[] }
    expect(requests.map(({ path, status }) => ({ path, status }))).toEqual([{ path: '/v1/pets/1', status: 200 }])
  })
})
