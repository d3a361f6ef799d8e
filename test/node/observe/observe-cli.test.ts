import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT_CONTEXT, SpanKind } from '@opentelemetry/api'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer'
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace'
import { type SpawnedServer, spawnServer } from '../../helpers/spawn-server.js'
import { decodeTraces, type OtlpReceiver, startOtlpReceiver } from '../../helpers/otlp-receiver.js'
import { bearer } from '../../helpers/auth.js'
import { packageVersion } from '../../../src/generated/contract.js'

// The Node host's observability end to end, through the built CLI (dist/bin.js): what a start
// loads, GET /__admin/metrics, and traces received over OTLP/HTTP by a receiver of the test's own.

const moduleWatch = fileURLToPath(new URL('../../helpers/module-watch.mjs', import.meta.url))
const watched = [process.execPath, '--import', moduleWatch]
const loaded = (server: SpawnedServer) =>
  [...server.stderr().matchAll(/^module-watch: loaded (\S+)$/gm)].map((m) => m[1])

const caller = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' }
const traceparent = `00-${caller.traceId}-${caller.spanId}-01`

/** Waits (bounded: 10 s) until `check` passes. */
const eventually = async (check: () => Promise<void> | void, timeoutMs = 10_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await check()
    } catch (error) {
      if (Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

describe('metrics from the CLI', () => {
  it('a default start loads neither prom-client nor OpenTelemetry; the first scrape loads prom-client', async () => {
    const server = await spawnServer(['--log', 'silent'], {}, 15_000, watched)
    try {
      for (let i = 0; i < 3; i++) expect((await fetch(`${server.url}/v1/pets`, { headers: bearer() })).status).toBe(200)
      expect(loaded(server)).toEqual([])
      const res = await fetch(`${server.url}/__admin/metrics`)
      expect(res.status).toBe(200)
      const text = await res.text()
      expect(text).toContain('petstore_mock_requests_total{operation="listPets",status="200",shaped_by="contract"} 3')
      // prom-client requires the OpenTelemetry API (for exemplars): that and nothing of the SDK.
      expect(loaded(server).sort()).toEqual(['@opentelemetry/api', 'prom-client'])
    } finally {
      await server.stop()
    }
  }, 30_000)

  it('asks for the admin token like the rest of /__admin, and --metrics off removes the route', async () => {
    const guarded = await spawnServer(['--log', 'silent', '--admin-token', 'secret'], {}, 15_000)
    const off = await spawnServer(['--log', 'silent'], { PETSTORE_MOCK_METRICS: 'off' }, 15_000)
    try {
      expect((await fetch(`${guarded.url}/__admin/metrics`)).status).toBe(401)
      const res = await fetch(`${guarded.url}/__admin/metrics`, { headers: bearer('secret') })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
      expect((await fetch(`${guarded.url}/__admin/health/live`)).status).toBe(200)
      expect((await fetch(`${off.url}/__admin/metrics`)).status).toBe(404)
      expect((await fetch(`${off.url}/__admin/health/ready`)).status).toBe(200)
    } finally {
      await Promise.all([guarded.stop(), off.stop()])
    }
  }, 30_000)
})

describe('traces over OTLP/HTTP (OTEL_* variables)', () => {
  let receiver: OtlpReceiver
  let server: SpawnedServer
  let log = ''

  beforeAll(async () => {
    receiver = await startOtlpReceiver()
    server = await spawnServer(
      ['--log', 'json'],
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_SERVICE_NAME: 'mock-under-test',
        OTEL_BSP_SCHEDULE_DELAY: '50',
      },
      15_000,
      watched,
    )
  }, 30_000)

  afterAll(async () => {
    await server?.stop()
    await receiver?.close()
  })

  it('the decoder reads what the official OTLP/JSON serializer writes', async () => {
    const exporter = new InMemorySpanExporter()
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] })
    const parent = new W3CTraceContextPropagator().extract(
      ROOT_CONTEXT,
      { traceparent },
      { get: (carrier, key) => carrier[key as 'traceparent'], keys: () => ['traceparent'] },
    )
    const span = provider
      .getTracer('check')
      .startSpan('GET /x', { kind: SpanKind.SERVER, attributes: { 'a.s': 'v', 'a.n': 503 } }, parent)
    span.addEvent('e', { 'e.n': 7 })
    span.end()
    await provider.forceFlush()
    expect(exporter.getFinishedSpans()).toHaveLength(1)
    const [decoded] = decodeTraces(JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans())!)
    expect(decoded).toMatchObject({
      traceId: caller.traceId,
      parentSpanId: caller.spanId,
      spanId: span.spanContext().spanId,
      name: 'GET /x',
      kind: 2,
      attributes: { 'a.s': 'v', 'a.n': 503 },
      events: [{ name: 'e', attributes: { 'e.n': 7 } }],
      scope: { name: 'check' },
    })
  })

  it("makes each /v1 request a server span continuing the caller's traceparent, with operation, status, session and Prefer", async () => {
    const res = await fetch(`${server.url}/v1/pets/1`, {
      headers: { ...bearer(), traceparent, 'X-Mock-Session': 'traced', Prefer: 'code=503, delay=30' },
    })
    expect(res.status).toBe(503)
    const span = await receiver.span((s) => s.traceId === caller.traceId)
    expect(span.parentSpanId).toBe(caller.spanId)
    expect(span.spanId).toMatch(/^[0-9a-f]{16}$/)
    expect(span).toMatchObject({
      name: 'GET /v1/pets/{petId}',
      kind: 2,
      status: { code: 2 },
      attributes: {
        'http.request.method': 'GET',
        'url.path': '/v1/pets/1',
        'http.route': '/v1/pets/{petId}',
        'http.response.status_code': 503,
        'petstore_mock.operation': 'getPet',
        'petstore_mock.session': 'traced',
        'petstore_mock.shaped_by': 'prefer',
        'petstore_mock.prefer': 'code=503, delay=30',
      },
      resource: { 'service.name': 'mock-under-test', 'service.version': packageVersion },
      scope: { name: 'petstore-mock', version: packageVersion },
    })
    expect(span.events).toMatchObject([
      { name: 'petstore_mock.prefer', attributes: { 'petstore_mock.status': 503, 'petstore_mock.delay_ms': 30 } },
    ])
    expect(span.endNanos - span.startNanos).toBeGreaterThanOrEqual(25_000_000n)
    expect(receiver.exports[0]).toEqual({ path: '/v1/traces', contentType: 'application/json' })
  })

  it("names the fault rule that shaped an answer, and its injected latency is an event; the span's trace id is in the journal and the log line", async () => {
    const session = { 'X-Mock-Session': 'faulty' }
    const rule = await fetch(`${server.url}/__admin/faults`, {
      method: 'POST',
      headers: { ...session, 'Content-Type': 'application/json' },
      body: JSON.stringify({ operation: 'listPets', delayMs: 20, status: 500, times: 1 }),
    })
    expect(rule.status).toBe(201)
    const { id } = (await rule.json()) as { id: number }
    expect((await fetch(`${server.url}/v1/pets`, { headers: { ...bearer(), ...session } })).status).toBe(500)
    const span = await receiver.span((s) => s.attributes['petstore_mock.session'] === 'faulty')
    expect(span.parentSpanId).toBe('')
    expect(span.attributes).toMatchObject({ 'petstore_mock.shaped_by': 'rule', 'petstore_mock.rule_id': id })
    expect(span.events).toMatchObject([
      {
        name: 'petstore_mock.fault',
        attributes: { 'petstore_mock.rule_id': id, 'petstore_mock.status': 500, 'petstore_mock.delay_ms': 20 },
      },
    ])
    const { requests } = (await (
      await fetch(`${server.url}/__admin/requests?limit=1`, { headers: session })
    ).json()) as { requests: { traceId?: string }[] }
    expect(requests[0]!.traceId).toBe(span.traceId)
    await eventually(() => {
      log = server.stdout()
      const line = log
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { path?: string; status?: number; traceId?: string })
        .find((l) => l.path === '/v1/pets' && l.status === 500)
      expect(line?.traceId).toBe(span.traceId)
    })
  })

  it('loads OpenTelemetry (and no prom-client until scraped), and says so in the banner', () => {
    expect(loaded(server)).toContain('@opentelemetry/sdk-trace')
    expect(loaded(server)).toContain('@opentelemetry/exporter-trace-otlp-http')
    expect(loaded(server)).not.toContain('prom-client')
    expect(server.stderr()).toContain(`  traces: OTLP/HTTP to ${receiver.endpoint}/v1/traces`)
  })

  it('exports the spans still pending when the server stops (SIGTERM)', async () => {
    const slow = await startOtlpReceiver()
    const stopping = await spawnServer(
      ['--log', 'silent'],
      { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${slow.endpoint}/v1/traces`, OTEL_BSP_SCHEDULE_DELAY: '60000' },
      15_000,
    )
    try {
      expect((await fetch(`${stopping.url}/v1/pets`, { headers: { ...bearer(), traceparent } })).status).toBe(200)
      expect(slow.spans).toEqual([])
      expect(await stopping.stop('SIGTERM')).toBe(0)
      expect(slow.spans.map((s) => [s.traceId, s.parentSpanId, s.name])).toEqual([
        [caller.traceId, caller.spanId, 'GET /v1/pets'],
      ])
    } finally {
      await slow.close()
    }
  }, 30_000)
})

describe('a collector that never answers', () => {
  it('holds a stopping server at most about 2 s for its last spans, whatever the exporter would wait', async () => {
    let exports = 0
    const hanging = createServer(() => void exports++)
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve))
    const { port } = hanging.address() as AddressInfo
    // The exporter and the batch would each wait 10 minutes for this collector: only the server's
    // own 2 s bound lets it exit within the test's timeout (no stopwatch: the timeout is the bound).
    const server = await spawnServer(
      ['--log', 'silent'],
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
        OTEL_EXPORTER_OTLP_TIMEOUT: '600000',
        OTEL_BSP_EXPORT_TIMEOUT: '600000',
        OTEL_BSP_SCHEDULE_DELAY: '60000',
      },
      15_000,
    )
    try {
      expect((await fetch(`${server.url}/v1/pets`, { headers: bearer() })).status).toBe(200)
      expect(await server.stop('SIGTERM')).toBe(0)
      // It did try: the span was sent to the collector, which never answered.
      expect(exports).toBe(1)
    } finally {
      hanging.closeAllConnections()
      await new Promise((resolve) => hanging.close(resolve))
    }
  }, 30_000)
})

describe('traces without the optional OpenTelemetry packages', () => {
  it('serves anyway, untraced, and says why in the banner', async () => {
    const server = await spawnServer(
      ['--log', 'silent'],
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', MODULE_WATCH_HIDE_OTEL: '1' },
      15_000,
      watched,
    )
    try {
      expect(server.stderr()).toContain(
        'traces: off: the OTEL_* variables ask for them, but the optional @opentelemetry packages are not installed',
      )
      expect((await fetch(`${server.url}/v1/pets`, { headers: bearer() })).status).toBe(200)
    } finally {
      await server.stop()
    }
  }, 30_000)
})
