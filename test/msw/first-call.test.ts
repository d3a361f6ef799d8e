import fc from 'fast-check'
import { setupServer } from 'msw/node'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { prepareMock } from '../../src/core/app.js'
import { createHandlers, type HandlersOptions } from '../../src/msw/index.js'
import { checkedInFull, checkOptions } from '../../src/msw/options.js'
import { optionLimits } from '../../src/msw/limits.js'
import { whenIdle } from '../../src/msw/when-idle.js'
import { withoutStack } from '../../src/msw/without-stack.js'
import { auth } from '../helpers/contract.js'

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

const integer = (limit: keyof typeof optionLimits) =>
  fc.integer({ min: optionLimits[limit].min, max: Math.min(optionLimits[limit].max, 1000) })

// Valid values of the options createHandlers checks in full itself (not pets: their own tests).
const fullyCheckedOptions: fc.Arbitrary<HandlersOptions> = fc.record(
  {
    maxPets: fc.integer({ min: 12, max: 1000 }),
    maxSessions: integer('maxSessions'),
    journalSize: integer('journalSize'),
    bodyLimit: integer('bodyLimit'),
    seed: integer('seed'),
    apiKeys: fc.array(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 3 }),
    // Valid: not blank (a blank token is a mis-set secret, refused: issue 40).
    adminToken: fc.string({ minLength: 1, maxLength: 8 }).filter((token) => token.trim() !== ''),
    faults: fc.constant([{ operation: 'listPets', status: 503, times: 1 }]),
    baseUrl: fc.constantFrom('http://localhost:4010', 'https://petstore.test/v1'),
    origins: fc.constantFrom<HandlersOptions['origins']>(['https://api.test', 'http://localhost:4010/v1'], 'any'),
    delay: fc.oneof(fc.integer({ min: 0, max: 50 }), fc.constant({ min: 1, max: 5 })),
  },
  { requiredKeys: [] },
)

describe('what the first createHandlers() call leaves for later', () => {
  it('leaves making the mock for later only when createHandlers checked every option given itself', () => {
    fc.assert(
      fc.property(fullyCheckedOptions, (options) => {
        expect(checkedInFull(options)).toBe(true)
        // Nothing left for prepareMock to reject: making the mock later cannot throw.
        const prepared = prepareMock(checkOptions({ origins: 'any', ...options }).app)
        expect(() => prepared.build()).not.toThrow()
      }),
      { numRuns: 50 },
    )
    for (const options of [
      { clock: '2030-01-01T00:00:00Z' },
      { rateLimit: { limit: 1, windowSeconds: 1 } },
      { sunset: 'ignore' },
      { cors: false },
      { allowedHosts: ['a.test'] },
      { adminCorsOrigins: [] },
      { spec: checkOptions({ origins: 'any' }).spec },
    ] as HandlersOptions[]) {
      expect(checkedInFull(options), JSON.stringify(Object.keys(options))).toBe(false)
    }
    expect(checkedInFull({ clock: undefined, maxPets: 5 })).toBe(true)
  })

  it('makes the mock when a control or a request needs it, even if the page never went idle', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] })
    const handlers = createHandlers({ origins: 'any', maxPets: 20 })
    const unused = createHandlers({ origins: 'any' })
    expect(vi.getTimerCount()).toBe(2)
    let ready = false
    void handlers.ready.then(() => (ready = true))
    await new Promise((resolve) => queueMicrotask(() => resolve(undefined)))
    expect(ready).toBe(false)
    expect(await handlers.pets()).toHaveLength(12)
    await handlers.ready
    // Dropped with the fake clock: the idle tasks never run, the first request makes the mock.
    vi.useRealTimers()
    const server = setupServer(...unused)
    server.listen({ onUnhandledFrame: 'error' })
    try {
      const res = await fetch('http://petstore.test/v1/pets?limit=2', { headers: auth() })
      expect(res.status).toBe(200)
      expect(await res.json()).toHaveLength(2)
    } finally {
      server.close()
    }
  })

  it('makes the mock, registers the routes and compiles the router in idle callbacks where there are', async () => {
    const idle: (() => void)[] = []
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => idle.push(callback))
    const handlers = createHandlers({ origins: 'any' })
    let ready = false
    void handlers.ready.then(() => (ready = true))
    const runIdle = async () => {
      const callback = idle.shift()!
      callback()
      await new Promise((resolve) => setTimeout(resolve))
    }
    expect(idle).toHaveLength(1)
    await runIdle()
    expect(ready).toBe(true)
    expect(idle).toHaveLength(1)
    await runIdle()
    expect(idle).toHaveLength(1)
    await runIdle()
    expect(idle).toHaveLength(0)
  })

  it('makes no Error (no stack for V8 to capture, with or without DevTools) and records no call frame', () => {
    const limit = Error.stackTraceLimit
    const RealError = Error
    let made = 0
    // Counts every `new Error()` made while createHandlers runs (msw's handler made one for its call frame).
    globalThis.Error = new Proxy(RealError, {
      construct: (target, args) => {
        made++
        return Reflect.construct(target, args)
      },
    })
    try {
      const [handler] = createHandlers({ origins: 'any' })
      expect(made).toBe(0)
      expect(handler!.info.callFrame).toBeUndefined()
    } finally {
      globalThis.Error = RealError
    }
    expect(Error.stackTraceLimit).toBe(limit)
  })
})

describe('withoutStack', () => {
  it('makes `new Error()` a plain object with no stack inside only, and restores Error when it throws', () => {
    const limit = Error.stackTraceLimit
    const RealError = Error
    const inside = withoutStack(() => new Error('x'))
    expect(inside).toEqual({ name: 'Error', message: 'x', stack: undefined })
    expect(inside).not.toBeInstanceOf(RealError)
    expect(() =>
      withoutStack(() => {
        throw new RangeError('y')
      }),
    ).toThrow('y')
    expect(Error).toBe(RealError)
    expect(Error.stackTraceLimit).toBe(limit)
    expect(new Error('z').stack).toContain('\n    at ')
  })
})

describe('whenIdle', () => {
  it('uses requestIdleCallback where there is one, else a task of its own', () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] })
    const task = vi.fn()
    whenIdle(task)
    expect(vi.getTimerCount()).toBe(1)
    vi.runAllTimers()
    expect(task).toHaveBeenCalledOnce()
    const idle = vi.fn()
    vi.stubGlobal('requestIdleCallback', idle)
    whenIdle(task)
    expect(vi.getTimerCount()).toBe(0)
    expect(idle).toHaveBeenCalledWith(task)
  })
})
