/** Library entry (Node): build the app in-process and drive it with `app.request()`, or read files for it. */
import { type AppOptions, createApp as createWebApp } from './core/app.js'
import { yamlCodec } from './node/yaml-codec.js'

export { appDefaults, type AppOptions } from './core/app.js'

/** {@link createWebApp} on Node: snapshots also as YAML unless `yaml` says otherwise. */
export const createApp = (options: AppOptions = {}) => createWebApp({ yaml: yamlCodec, ...options })
export { yamlCodec }
export type { AppEnv } from './core/app-env.js'
export type { ClockOption } from './core/time/clock.js'
export type { ErrorBody } from './core/http/errors.js'
export type { Har, HarEntry } from './core/journal/har.js'
export type { JournalEntry } from './core/journal/journal-entry.js'
export { createLogger, type Logger, type LogFormat, type LogSink } from './core/http/log.js'
export type { NewPet, Pet, PetStatus } from './core/state/pet.js'
export type { RateLimitPolicy } from './core/controls/rate-limit.js'
export { fakePets, SeedError } from './core/state/seed.js'
export type { Snapshot } from './core/state/snapshot.js'
export { bundledSpec } from './core/spec/bundled-spec.js'
export { parseSpec } from './core/spec/parse-spec.js'
export type { Spec, SpecOperation } from './core/spec/spec.js'
export { loadSpec, readFixtures } from './node/files.js'
export { nodeTransport } from './node/node-transport.js'
