/**
 * `petstore-mock/types`: the types of the Pet Store API and of petstore-mock's admin API. Every one
 * is the server's own type (re-exported, never written twice); `paths`, `components` and
 * `operations` are generated from openapi.yaml by openapi-typescript, for openapi-fetch and the like.
 * Type-only: this entry point has no runtime code.
 */
export type { NewPet, Pet, PetStatus } from '../core/pet.js'
export type { ErrorBody } from '../core/errors.js'
export type { FaultKind, FaultRule, FaultRuleInput } from '../core/faults.js'
export type { JournalQuery, Shaping } from '../core/journal.js'
export type { JournalEntry } from '../core/journal-entry.js'
export type { Har, HarEntry, HarPair } from '../core/har.js'
export type { Snapshot } from '../core/snapshot.js'
export type { LatencyRange } from '../core/world.js'
export type { SessionSummary } from '../core/sessions.js'
export type { ClockView } from '../core/clock.js'
export type { ClientUsage, DeprecationReport } from '../core/deprecation-log.js'
export type {
  ClockRequest,
  DeprecationList,
  FaultList,
  Health,
  RateLimitView,
  RequestList,
  SeedRequest,
  SessionList,
  StateBody,
} from '../core/routes/admin-bodies.js'
export type { components, operations, paths } from '../generated/openapi-types.js'
