/** Library entry (Node): build the app in-process and drive it with `app.request()`, or read files for it. */
import { type AppOptions, createApp as createWebApp } from './core/app.js'
import { holdBundledText } from './core/spec/bundled-spec.js'
import { specText } from './generated/contract-text.js'
import { jsonDataReader, yamlCodec } from './node/yaml/codec.js'

export { appDefaults, type AppOptions } from './core/app.js'

/**
 * {@link createWebApp} on Node: snapshots also as YAML unless `yaml` says otherwise, long JSON data
 * bodies parsed on a worker thread unless `jsonData` says otherwise.
 */
export const createApp = (options: AppOptions = {}) =>
  createWebApp({ yaml: yamlCodec, jsonData: jsonDataReader, ...options })
export { jsonDataReader, yamlCodec }
export type { AppEnv } from './core/app.js'
export type { ClockOption } from './core/time/clock.js'
export type { ErrorBody } from './core/http/errors.js'
export type { Har, HarEntry } from './core/journal/har.js'
export type { JournalEntry } from './core/journal/journal-entry.js'
export type {
  AnswerSource,
  MetricsExposition,
  MetricsScope,
  ObserveOptions,
  ReadinessCheck,
  RequestObserver,
  RequestTrace,
  RequestTracer,
  StateSizes,
  TracedAnswer,
  TracedRequest,
} from './core/observe/observer.js'
export { createLogger, type Logger, type LogFormat, type LogSink } from './core/log/log.js'
export type { NewPet, Pet, PetStatus } from './core/spec/pet.js'
export { createProxy, type Proxy } from './core/proxy/create-proxy.js'
export type { ProxyOptions } from './core/proxy/proxy-options.js'
export type { ProxyReport } from './core/proxy/proxy-stats.js'
export type { RateLimitPolicy } from './core/rate-limit/rate-limit.js'
export { silenceDefaults, type SpecSilences } from './core/spec/silences.js'
export { fakePets, SeedError } from './core/pets/seed.js'
export type { Snapshot } from './core/sessions/snapshot.js'
export { bundledSpec } from './core/spec/bundled-spec.js'
// The library's bundledSpec() holds openapi.yaml's text from the start (msw's loads it on first use).
holdBundledText(specText)
export { parseSpec } from './core/spec/parse-spec.js'
export type { Spec, SpecOperation } from './core/spec/spec.js'
export { loadSpec, readFixtures } from './node/start/files.js'
export { nodeTransport } from './node/server/node-transport.js'
export { coverageSchema } from './core/coverage/coverage-schema.js'
export type { CoverageReport } from './core/coverage/coverage-report.js'
export type { PactDocument } from './core/coverage/pact-document.js'
