import { describe, expect, it } from 'vitest'
import type { Shaping } from '../../../src/core/notes/request-notes.js'
import type {
  AnswerSource,
  RequestObserver,
  RequestTrace,
  RequestTracer,
  TracedAnswer,
  TracedRequest,
} from '../../../src/core/observe/observer.js'
import { answerSource, observeListener } from '../../../src/core/observe/observe-listener.js'
import { traceIdOf } from '../../../src/core/http/request/traceparent.js'
import { createLogger } from '../../../src/core/log/log.js'
import { auth, contractApp, onRedis, postJson, spec } from '../../helpers/contract.js'
import { onePet } from '../../helpers/fixtures.js'
import { bearer } from '../../helpers/auth.js'

type Seen = [operation: string | null, status: number, source: AnswerSource, seconds: number]

/** An observer that keeps what it was told. */
const recorder = (): RequestObserver & { seen: Seen[] } => {
  const seen: Seen[] = []
  return { seen, answered: (...args) => void seen.push(args) }
}

const admin = (method: string, body?: unknown): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  ...(body !== undefined && { body: JSON.stringify(body) }),
})

const caller = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' }
const traceparent = `00-${caller.traceId}-${caller.spanId}-01`

describe('the request observer (createApp observe.requests)', () => {
  it('is told of every answered /v1 request once: operation, status, what shaped it, seconds; never of /__admin', async () => {
    const requests = recorder()
    const { request } = contractApp({ observe: { requests } })
    await request('/v1/pets', { headers: auth() })
    await request('/v1/pets/99', { headers: auth() })
    await request('/v1/pets', { headers: auth({ Prefer: 'code=500' }) })
    await request('/v1/pets?__code=503', { headers: auth() })
    await request('/__admin/faults', admin('POST', { operation: 'createPet', status: 503, times: 1 }))
    await request('/v1/pets', postJson({ name: 'a', categoryId: 1 }))
    await request('/v1/pets', postJson({ name: 'b', categoryId: 1 }))
    await request('/v1/nothing', { headers: auth() })
    await request('/v1/pets', { method: 'DELETE', headers: auth() })
    await request('/v1/pets')
    await request('/__admin/requests')
    await request('/openapi.json')
    expect(requests.seen.map(([operation, status, source]) => [operation, status, source])).toEqual([
      ['listPets', 200, 'contract'],
      ['getPet', 404, 'contract'],
      ['listPets', 500, 'prefer'],
      ['listPets', 503, 'prefer'],
      ['createPet', 503, 'rule'],
      ['createPet', 201, 'contract'],
      [null, 404, 'contract'],
      [null, 405, 'contract'],
      ['listPets', 401, 'contract'],
    ])
    for (const [, , , seconds] of requests.seen) expect(seconds).toBeGreaterThanOrEqual(0)
  })

  it('times the whole chain, injected latency included', async () => {
    const requests = recorder()
    const { request } = contractApp({ observe: { requests } })
    await request('/v1/pets', { headers: auth({ Prefer: 'delay=120' }) })
    await request('/__admin/faults', admin('POST', { operation: 'getPet', delayMs: 80, times: 1 }))
    await request('/v1/pets/1', { headers: auth() })
    const [[, , prefer, preferSeconds], [, , rule, ruleSeconds]] = requests.seen as [Seen, Seen]
    expect([prefer, rule]).toEqual(['prefer', 'rule'])
    expect(preferSeconds).toBeGreaterThanOrEqual(0.115)
    expect(ruleSeconds).toBeGreaterThanOrEqual(0.075)
  })

  it('counts a reset connection as status 0, shaped by its rule', async () => {
    const requests = recorder()
    const { app, request } = contractApp({ observe: { requests } })
    await request('/__admin/faults', admin('POST', { fault: 'connection_reset', times: 1 }))
    await expect(app.request('/v1/pets', { headers: auth() })).rejects.toThrow()
    // Over HTTP (redis-lb) the client sees the reset before the server has told the observer: wait for it.
    await expect.poll(() => requests.seen.length).toBe(1)
    expect(requests.seen.map(([operation, status, source]) => [operation, status, source])).toEqual([
      ['listPets', 0, 'rule'],
    ])
  })

  it('adds no listener when the host observes nothing', () => {
    const operation = spec.operations[0]!
    const session = () => undefined
    expect(
      observeListener(operation, { requests: undefined, tracer: undefined, route: null, proxied: false, session }),
    ).toBeUndefined()
    expect(
      observeListener(operation, { requests: recorder(), tracer: undefined, route: null, proxied: false, session }),
    ).toBeTypeOf('object')
  })

  it('names what shaped an answer: the first override or fault rule, else the contract or the deployment', () => {
    const latency: Shaping = { by: 'latency', delayMs: 5 }
    expect(answerSource(undefined, false)).toBe('contract')
    expect(answerSource(undefined, true)).toBe('proxy')
    expect(answerSource([latency], false)).toBe('contract')
    expect(answerSource([latency, { by: 'fault', ruleId: 3, delayMs: 1 }], true)).toBe('rule')
    expect(answerSource([{ by: 'override', status: 500 }], true)).toBe('prefer')
  })
})

/** A tracer that keeps its traces' starts, events and ends. */
const fakeTracer = () => {
  const traces: { request: TracedRequest; traceparent: string | undefined; events: Shaping[]; end?: TracedAnswer }[] =
    []
  let n = 0
  const tracer: RequestTracer = {
    start: (request) => {
      const trace = { request, traceparent: request.header('traceparent'), events: [] as Shaping[] }
      traces.push(trace as (typeof traces)[number])
      // The caller's trace continues; a request without one starts its own.
      const traceId = traceIdOf(trace.traceparent) ?? (++n).toString(16).padStart(32, 'a')
      const made: RequestTrace = {
        traceId,
        shaped: (shaping) => void trace.events.push(shaping),
        end: (answer) => void ((trace as (typeof traces)[number]).end = answer),
      }
      return made
    },
  }
  return { tracer, traces }
}

describe('the tracer (createApp observe.tracer)', () => {
  it('starts a trace before the chain, sees each control as it shapes the answer, and ends with status, session and Prefer', async () => {
    const { tracer, traces } = fakeTracer()
    const { request } = contractApp({ observe: { tracer } })
    await request('/v1/pets/1', { headers: auth({ traceparent, 'X-Mock-Session': 's1', Prefer: 'code=500, delay=5' }) })
    await request('/__admin/faults', admin('POST', { operation: 'listPets', status: 503, delayMs: 5, times: 1 }))
    await request('/v1/pets', { headers: auth() })
    await request('/v1/none', { headers: auth() })
    expect(traces).toHaveLength(3)
    const [forced, ruled, unmatched] = traces as [(typeof traces)[0], (typeof traces)[0], (typeof traces)[0]]
    expect(forced.request).toMatchObject({
      method: 'GET',
      path: '/v1/pets/1',
      operation: 'getPet',
      route: '/v1/pets/{petId}',
    })
    expect(forced.traceparent).toBe(traceparent)
    expect(forced.events).toEqual([{ by: 'override', status: 500, delayMs: 5 }])
    expect(forced.end).toEqual({
      status: 500,
      source: 'prefer',
      session: 's1',
      shapedBy: [{ by: 'override', status: 500, delayMs: 5 }],
      prefer: 'code=500, delay=5',
    })
    expect(ruled.events).toEqual([{ by: 'fault', ruleId: 1, status: 503, delayMs: 5 }])
    expect(ruled.end).toMatchObject({ status: 503, source: 'rule', session: 'default', prefer: undefined })
    expect(unmatched.request).toMatchObject({ operation: null, route: null })
    expect(unmatched.end).toMatchObject({ status: 404, source: 'contract' })
  })

  it("puts the trace's id in the journal entry, the HAR entry and the JSON log line", async () => {
    const { tracer } = fakeTracer()
    const lines: string[] = []
    const logger = createLogger('json', { write: (text) => lines.push(text) })
    const { request } = contractApp({ observe: { tracer }, logger })
    await request('/v1/pets/1', { headers: auth({ traceparent }) })
    await request('/v1/pets/2', { headers: auth() })
    const [own, continued] = (await (await request('/__admin/requests')).json()).requests
    expect(continued.traceId).toBe(caller.traceId)
    expect(own.traceId).toBe('a'.repeat(31) + '1')
    const har = await (await request('/__admin/requests.har')).json()
    expect(har.log.entries.map((e: { _traceId?: string }) => e._traceId)).toEqual([caller.traceId, own.traceId])
    const logged = lines.map((line) => JSON.parse(line)).filter((line) => line.path?.startsWith('/v1/'))
    expect(logged.map((line) => line.traceId)).toEqual([caller.traceId, own.traceId])
  })
})

describe('a trace id without a tracer', () => {
  it("comes from the caller's traceparent: journal, HAR and log line; none when it is absent or invalid", async () => {
    const lines: string[] = []
    const logger = createLogger('json', { write: (text) => lines.push(text) })
    const { request } = contractApp({ logger })
    await request('/v1/pets/1', { headers: auth({ traceparent }) })
    await request('/v1/pets/1', { headers: auth({ traceparent: `00-${'0'.repeat(32)}-${caller.spanId}-01` }) })
    await request('/v1/pets/1', { headers: auth() })
    const entries = (await (await request('/__admin/requests')).json()).requests
    expect(entries.map((e: { traceId?: string }) => e.traceId)).toEqual([undefined, undefined, caller.traceId])
    expect(entries[0]).not.toHaveProperty('traceId')
    const har = await (await request('/__admin/requests.har')).json()
    expect(har.log.entries.map((e: { _traceId?: string }) => e._traceId)).toEqual([
      caller.traceId,
      undefined,
      undefined,
    ])
    const logged = lines.map((line) => JSON.parse(line)).filter((line) => line.path === '/v1/pets/1')
    expect(logged.map((line) => line.traceId)).toEqual([caller.traceId, undefined, undefined])
  })

  it.each([
    [traceparent, caller.traceId],
    [` ${traceparent} `, caller.traceId],
    [`01-${caller.traceId}-${caller.spanId}-01-later-fields`, caller.traceId],
    [`00-${caller.traceId}-${caller.spanId}-01-more`, undefined],
    [`ff-${caller.traceId}-${caller.spanId}-01`, undefined],
    [`00-${caller.traceId.toUpperCase()}-${caller.spanId}-01`, undefined],
    [`00-${caller.traceId}-${'0'.repeat(16)}-01`, undefined],
    [`00-${caller.traceId.slice(1)}-${caller.spanId}-01`, undefined],
    ['', undefined],
  ])('traceIdOf(%j) is %s (W3C Trace Context)', (header, expected) => {
    expect(traceIdOf(header)).toBe(expected)
  })
})

describe('GET /__admin/health/live and /__admin/health/ready', () => {
  it('answer 200 without the admin token and from any Host, like health', async () => {
    const { request } = contractApp({ adminToken: 'secret' })
    for (const url of ['/__admin/health/live', 'http://10.1.2.3:4010/__admin/health/live']) {
      const res = await request(url)
      expect(res.status, url).toBe(200)
      expect(await res.json()).toEqual({ status: 'live' })
      expect(res.headers.get('cache-control')).toBe('no-store')
    }
    const ready = await request('http://petstore:4010/__admin/health/ready')
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: 'ready' })
    expect((await request('/__admin/requests')).status).toBe(401)
  })

  it("ready answers 503 with the check's sentence while it fails, and live stays 200", async () => {
    let reason: string | undefined = 'The state store (Redis) refuses writes: READONLY.'
    const { request } = contractApp({ observe: { ready: () => reason } })
    const refused = await request('/__admin/health/ready')
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('1')
    expect(await refused.json()).toEqual({ code: 'service_unavailable', message: reason, status: 503 })
    expect((await request('/__admin/health/live')).status).toBe(200)
    expect((await request('/__admin/health')).status).toBe(200)
    reason = undefined
    expect((await request('/__admin/health/ready')).status).toBe(200)
  })
})

describe('GET /__admin/metrics', () => {
  const text = async () => ({ contentType: 'text/plain; version=0.0.4; charset=utf-8', body: 'up 1\n' })

  it('does not exist unless the host gives its text', async () => {
    const { request } = contractApp()
    expect((await request('/__admin/metrics')).status).toBe(404)
  })

  it("answers the host's text behind the admin token, like the rest of /__admin", async () => {
    const { request } = contractApp({ adminToken: 'secret', observe: { metrics: text } })
    expect((await request('/__admin/metrics')).status).toBe(401)
    expect((await request('/__admin/metrics', { headers: bearer('wrong') })).status).toBe(401)
    const res = await request('/__admin/metrics', { headers: bearer('secret') })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(await res.text()).toBe('up 1\n')
    expect((await request('http://evil.example/__admin/metrics', { headers: bearer('secret') })).status).toBe(403)
  })

  it("hands the host the state's sizes as they are at the scrape: sessions, pets, journal entries, rules, streams", async () => {
    const sizes: unknown[] = []
    const { request } = contractApp({
      pets: onePet(),
      observe: {
        metrics: async (scope) => {
          sizes.push(await scope.sizes())
          return text()
        },
      },
    })
    await request('/v1/pets', { headers: auth() })
    await request('/v1/pets', { headers: auth({ 'X-Mock-Session': 'other' }) })
    await request('/v1/pets', postJson({ name: 'b', categoryId: 1 }, { 'X-Mock-Session': 'other' }))
    await request('/__admin/faults', admin('POST', { operation: 'getPet', status: 500 }))
    await request('/__admin/metrics')
    expect(sizes).toEqual([
      {
        sessions: 2,
        pets: 3,
        journalEntries: 3,
        faultRules: 1,
        eventStreams: 0,
        memory: { usedBytes: expect.any(Number), budgetBytes: null, usedRatio: null },
        // On Redis: whether it takes writes (issue 41); the memory store never refuses them.
        ...(onRedis() && { storeWritable: true }),
      },
    ])
  })

  it('hands the host the memory budget and what it holds, as health shows them', async () => {
    const sizes: { memory?: { usedBytes: number; budgetBytes: number | null } }[] = []
    const { request } = contractApp({
      maxMemory: 64,
      observe: {
        metrics: async (scope) => {
          sizes.push(await scope.sizes())
          return text()
        },
      },
    })
    await request('/v1/pets', postJson({ name: 'x'.repeat(500), categoryId: 1 }, { 'X-Mock-Session': 'big' }))
    await request('/__admin/metrics')
    const health = (await (await request('/__admin/health')).json()) as {
      memory: { usedBytes: number; usedRatio: number }
    }
    expect(sizes[0]!.memory).toEqual({
      usedBytes: health.memory.usedBytes,
      budgetBytes: 64 * 2 ** 20,
      usedRatio: health.memory.usedRatio,
    })
    expect(sizes[0]!.memory!.usedBytes).toBeGreaterThan(1000)
  })
})
