import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

// An OTLP/HTTP trace receiver of a test's own, on a loopback port: it answers every export 200 and
// decodes each body as the OTLP/JSON encoding of an ExportTraceServiceRequest (the protobuf JSON
// mapping of opentelemetry-proto's collector/trace/v1, with trace and span ids as hex strings), the
// encoding @opentelemetry/exporter-trace-otlp-http sends. test/node/observe/traces.test.ts checks
// this decoder against the official serializer (@opentelemetry/otlp-transformer).

/** An attribute value as decoded: string, number, boolean, or a list of them. */
export type AttributeValue = string | number | boolean | AttributeValue[] | null

/** A span as decoded from an export. */
export interface DecodedSpan {
  traceId: string
  spanId: string
  /** Empty for a root span. */
  parentSpanId: string
  name: string
  /** OTLP's SpanKind: 2 is SERVER. */
  kind: number
  startNanos: bigint
  endNanos: bigint
  attributes: Record<string, AttributeValue>
  events: { name: string; timeNanos: bigint; attributes: Record<string, AttributeValue> }[]
  /** 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string }
  /** The resource's attributes (service.name, …). */
  resource: Record<string, AttributeValue>
  scope: { name: string; version?: string }
}

interface AnyValue {
  stringValue?: string
  boolValue?: boolean
  intValue?: string | number
  doubleValue?: number
  arrayValue?: { values?: AnyValue[] }
  kvlistValue?: { values?: KeyValue[] }
  bytesValue?: string
}
interface KeyValue {
  key: string
  value?: AnyValue
}

const valueOf = (value: AnyValue | undefined): AttributeValue => {
  if (value === undefined) return null
  if (value.stringValue !== undefined) return value.stringValue
  if (value.boolValue !== undefined) return value.boolValue
  // int64 is a JSON string or number in the protobuf JSON mapping.
  if (value.intValue !== undefined) return Number(value.intValue)
  if (value.doubleValue !== undefined) return value.doubleValue
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(valueOf)
  if (value.bytesValue !== undefined) return value.bytesValue
  return null
}

const attributesOf = (list: KeyValue[] | undefined): Record<string, AttributeValue> =>
  Object.fromEntries((list ?? []).map(({ key, value }) => [key, valueOf(value)]))

const nanos = (value: string | number | undefined): bigint => BigInt(value ?? 0)

interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] }
    scopeSpans?: {
      scope?: { name: string; version?: string }
      spans?: {
        traceId: string
        spanId: string
        parentSpanId?: string
        name: string
        kind?: number
        startTimeUnixNano?: string | number
        endTimeUnixNano?: string | number
        attributes?: KeyValue[]
        events?: { name: string; timeUnixNano?: string | number; attributes?: KeyValue[] }[]
        status?: { code?: number; message?: string }
      }[]
    }[]
  }[]
}

/** The spans of one OTLP/JSON ExportTraceServiceRequest body. */
export const decodeTraces = (body: Uint8Array | string): DecodedSpan[] => {
  const request = JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body)) as ExportRequest
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = attributesOf(resourceSpans.resource?.attributes)
    return (resourceSpans.scopeSpans ?? []).flatMap((scopeSpans) =>
      (scopeSpans.spans ?? []).map((span): DecodedSpan => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? '',
        name: span.name,
        kind: span.kind ?? 0,
        startNanos: nanos(span.startTimeUnixNano),
        endNanos: nanos(span.endTimeUnixNano),
        attributes: attributesOf(span.attributes),
        events: (span.events ?? []).map((event) => ({
          name: event.name,
          timeNanos: nanos(event.timeUnixNano),
          attributes: attributesOf(event.attributes),
        })),
        status: { code: span.status?.code ?? 0, ...(span.status?.message && { message: span.status.message }) },
        resource,
        scope: {
          name: scopeSpans.scope?.name ?? '',
          ...(scopeSpans.scope?.version && { version: scopeSpans.scope.version }),
        },
      })),
    )
  })
}

/** A receiver listening on a loopback port. */
export interface OtlpReceiver {
  /** The base endpoint, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint: string
  /** Every span received so far. */
  spans: DecodedSpan[]
  /** The paths and content types of the exports received. */
  exports: { path: string; contentType: string | undefined }[]
  /** Resolves with the first span `found` accepts, once received (bounded: `timeoutMs`). */
  span(found: (span: DecodedSpan) => boolean, timeoutMs?: number): Promise<DecodedSpan>
  close(): Promise<void>
}

/** Starts an OTLP/HTTP receiver on a free loopback port. */
export const startOtlpReceiver = (): Promise<OtlpReceiver> =>
  new Promise((resolve) => {
    const spans: DecodedSpan[] = []
    const exports: OtlpReceiver['exports'] = []
    const waiting = new Set<() => void>()
    const server: Server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        exports.push({ path: req.url ?? '', contentType: req.headers['content-type'] })
        try {
          spans.push(...decodeTraces(Buffer.concat(chunks)))
        } finally {
          res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}')
          for (const wake of waiting) wake()
        }
      })
    })
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      resolve({
        endpoint: `http://127.0.0.1:${port}`,
        spans,
        exports,
        span: (found, timeoutMs = 10_000) =>
          new Promise((done, fail) => {
            const check = () => {
              const span = spans.find(found)
              if (!span) return
              clearTimeout(timer)
              waiting.delete(check)
              done(span)
            }
            const timer = setTimeout(() => {
              waiting.delete(check)
              fail(
                new Error(`no such span within ${timeoutMs} ms; received ${JSON.stringify(spans.map((s) => s.name))}`),
              )
            }, timeoutMs)
            waiting.add(check)
            check()
          }),
        close: () => new Promise((closed) => server.close(() => closed())),
      })
    })
  })
