/**
 * Whether the standard OpenTelemetry variables ask for traces: an OTLP endpoint
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), or
 * `OTEL_TRACES_EXPORTER=otlp` (the default endpoint, http://localhost:4318); never with
 * `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`. `OTEL_SERVICE_NAME` and the other
 * variables only shape what is exported. Read without loading any of OpenTelemetry.
 */
export const tracesRequested = (env: NodeJS.ProcessEnv): boolean => {
  const value = (name: string) => env[name]?.trim() ?? ''
  if (value('OTEL_SDK_DISABLED').toLowerCase() === 'true') return false
  const exporters = value('OTEL_TRACES_EXPORTER')
    .toLowerCase()
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (exporters.includes('none')) return false
  return (
    value('OTEL_EXPORTER_OTLP_ENDPOINT') !== '' ||
    value('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') !== '' ||
    exporters.includes('otlp')
  )
}

/** Where traces go, for the banner: the traces endpoint, else the base endpoint's /v1/traces. */
export const tracesEndpoint = (env: NodeJS.ProcessEnv): string => {
  const traces = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']?.trim()
  if (traces) return traces
  const base = env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim() || 'http://localhost:4318'
  return `${base.replace(/\/+$/, '')}/v1/traces`
}
