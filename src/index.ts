/** Library entry: build the app in-process and drive it with `app.request()`. */
export { createApp, appDefaults, type AppOptions } from './app.js'
export type { AppEnv } from './app-env.js'
export type { ErrorBody } from './errors.js'
export { createLogger, type Logger, type LogFormat } from './log.js'
export type { NewPet, Pet, PetStatus } from './pet.js'
export { fakePets, readFixtures, SeedError } from './seed.js'
export { loadSpec, parseSpec, type Spec, type SpecOperation } from './spec/load-spec.js'
