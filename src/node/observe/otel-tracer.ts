import {
  type Attributes,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
} from '@opentelemetry/api'
import { getNumberFromEnv, getStringFromEnv, W3CTraceContextPropagator } from '@opentelemetry/core'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources'
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace'
import type { RequestTrace, RequestTracer, TracedAnswer, TracedRequest } from '../../core/observe/observer.js'
import type { Shaping } from '../../core/notes/request-notes.js'

/** The tracer and what flushes and stops it. */
export interface Tracing {
  tracer: RequestTracer
  /** Exports what is pending, then stops (the server stops). */
  shutdown(): Promise<void>
}

/** Span attributes of this mock, beside OpenTelemetry's HTTP semantic conventions. */
export const attributeNames = {
  operation: 'petstore_mock.operation',
  session: 'petstore_mock.session',
  shapedBy: 'petstore_mock.shaped_by',
  ruleId: 'petstore_mock.rule_id',
  prefer: 'petstore_mock.prefer',
} as const

/** The sampler OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG name (default: parentbased_always_on). */
const samplerFromEnv = (): Sampler => {
  const ratio = () => {
    const arg = getNumberFromEnv('OTEL_TRACES_SAMPLER_ARG')
    return arg === undefined || arg < 0 || arg > 1 ? 1 : arg
  }
  switch (getStringFromEnv('OTEL_TRACES_SAMPLER')?.trim().toLowerCase()) {
    case 'always_on':
      return new AlwaysOnSampler()
    case 'always_off':
      return new AlwaysOffSampler()
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio())
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() })
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio()) })
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() })
  }
}

// The carrier is the request: its headers are read one by one, by name.
const getter: TextMapGetter<TracedRequest> = {
  get: (request, key) => request.header(key),
  keys: () => [],
}

const eventOf = (shaping: Shaping): [string, Attributes] => {
  switch (shaping.by) {
    case 'latency':
      return ['petstore_mock.latency', { 'petstore_mock.delay_ms': shaping.delayMs }]
    case 'override':
      return [
        'petstore_mock.prefer',
        {
          ...(shaping.status !== undefined && { 'petstore_mock.status': shaping.status }),
          ...(shaping.delayMs !== undefined && { 'petstore_mock.delay_ms': shaping.delayMs }),
        },
      ]
    case 'fault':
      return [
        'petstore_mock.fault',
        {
          [attributeNames.ruleId]: shaping.ruleId,
          ...(shaping.status !== undefined && { 'petstore_mock.status': shaping.status }),
          ...(shaping.delayMs !== undefined && { 'petstore_mock.delay_ms': shaping.delayMs }),
          ...(shaping.fault !== undefined && { 'petstore_mock.fault': shaping.fault }),
        },
      ]
  }
}

class SpanTrace implements RequestTrace {
  readonly traceId: string

  constructor(private readonly span: Span) {
    this.traceId = span.spanContext().traceId
  }

  shaped(shaping: Shaping): void {
    const [name, attributes] = eventOf(shaping)
    this.span.addEvent(name, attributes)
  }

  end(answer: TracedAnswer): void {
    const { span } = this
    const rule = answer.shapedBy?.find((s) => s.by === 'fault')
    span.setAttributes({
      [attributeNames.shapedBy]: answer.source,
      ...(answer.status !== 0 && { 'http.response.status_code': answer.status }),
      ...(answer.session !== undefined && { [attributeNames.session]: answer.session }),
      ...(rule?.by === 'fault' && { [attributeNames.ruleId]: rule.ruleId }),
      ...(answer.prefer !== undefined && { [attributeNames.prefer]: answer.prefer }),
    })
    // A server span is an error for a 5xx, not a 4xx (the client's), and when no answer went out.
    if (answer.status === 0) span.setStatus({ code: SpanStatusCode.ERROR, message: 'connection reset, no answer' })
    else if (answer.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
    span.end()
  }
}

/**
 * Traces for the Node host, made with the official OpenTelemetry SDK when the standard variables
 * ask for them (otel-env.ts): each `/v1` request a server span, continuing the caller's W3C
 * `traceparent`, exported in batches over OTLP/HTTP (JSON) to OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT.
 * The resource says `service.name` petstore-mock unless OTEL_SERVICE_NAME or
 * OTEL_RESOURCE_ATTRIBUTES say otherwise; OTEL_TRACES_SAMPLER[_ARG] and OTEL_BSP_* are read too.
 * No context manager and no instrumentation: the mock makes its one span per request itself.
 */
export const startTracing = (version: string): Tracing => {
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': 'petstore-mock', 'service.version': version }))
    .merge(detectResources({ detectors: [envDetector] }))
  const provider = new TracerProvider({
    resource,
    sampler: samplerFromEnv(),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter(),
        ...optional('scheduledDelayMillis', getNumberFromEnv('OTEL_BSP_SCHEDULE_DELAY')),
        ...optional('exportTimeoutMillis', getNumberFromEnv('OTEL_BSP_EXPORT_TIMEOUT')),
        ...optional('maxQueueSize', getNumberFromEnv('OTEL_BSP_MAX_QUEUE_SIZE')),
        ...optional('maxExportBatchSize', getNumberFromEnv('OTEL_BSP_MAX_EXPORT_BATCH_SIZE')),
      }),
    ],
  })
  const tracer = provider.getTracer('petstore-mock', version)
  const propagator = new W3CTraceContextPropagator()
  return {
    tracer: {
      start: (request) => {
        const parent = propagator.extract(ROOT_CONTEXT, request, getter)
        const span = tracer.startSpan(
          request.route === null ? request.method : `${request.method} ${request.route}`,
          {
            kind: SpanKind.SERVER,
            attributes: {
              'http.request.method': request.method,
              'url.path': request.path,
              ...(request.route !== null && { 'http.route': request.route }),
              ...(request.operation !== null && { [attributeNames.operation]: request.operation }),
            },
          },
          parent,
        )
        return new SpanTrace(span)
      },
    },
    shutdown: () => provider.shutdown(),
  }
}

const optional = <K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> =>
  value === undefined ? {} : ({ [key]: value } as Record<K, number>)
