/**
 * `petstore-mock/types`: the types of the Pet Store API and of petstore-mock's admin API. Every one
 * is the server's own type (re-exported, never written twice) or, for what the admin API answers of the
 * journal, HAR, Pact and provider states, admin-openapi.yaml's schema (generated; the server's types are
 * the same aliases); `paths`, `components` and
 * `operations` are generated from openapi.yaml by openapi-typescript, for openapi-fetch and the like;
 * `AdminPaths`, `AdminComponents` and `AdminOperations` from admin-openapi.yaml (the control plane),
 * and the journal's query with them.
 * Type-only: this entry point has no runtime code.
 */
export type { NewPet, Pet, PetStatus } from '../core/spec/pet.js'
export type { DataProfile } from '../core/pets/data-profile.js'
export type { ErrorBody } from '../core/http/errors.js'
export type { FaultKind, FaultRule, FaultRuleInput } from '../core/faults/rule-check.js'
export type { BodyValue, RuleWhen } from '../core/faults/rule-match.js'
export type { Snapshot } from '../core/sessions/snapshot.js'
export type { LatencyRange } from '../core/sessions/world.js'
export type { SessionSummary } from '../core/sessions/port.js'
export type { ClockView } from '../core/time/clock.js'
export type { ClientUsage, DeprecationReport } from '../core/deprecation/deprecation-log.js'
export type { Health } from '../core/admin/health-routes.js'
export type { ClockRequest } from '../core/time/clock-routes.js'
export type { DeprecationList } from '../core/deprecation/deprecation-routes.js'
export type { FaultList } from '../core/faults/fault-routes.js'
export type { RateLimitView } from '../core/rate-limit/rate-limit-routes.js'
export type { SeedRequest, StateBody } from '../core/pets/state-routes.js'
export type { SessionList } from '../core/sessions/session-routes.js'
export type { CoverageReport, InputCoverage, ResponseCoverage } from '../core/coverage/coverage-report.js'
export type { components, operations, paths } from '../generated/openapi-types.js'
export type {
  components as AdminComponents,
  operations as AdminOperations,
  paths as AdminPaths,
} from '../generated/admin-types.js'

/** The filters and cursor of GET /__admin/requests and /requests.har, as admin-openapi.yaml describes them. */
export type JournalQuery = Omit<
  NonNullable<import('../generated/admin-types.js').operations['listRequests']['parameters']['query']>,
  'count' | 'wait'
>

type AdminSchemas = import('../generated/admin-types.js').components['schemas']
/** How the mock's controls shaped an answer (a union on `by`): admin-openapi.yaml's `Shaping`. */
export type Shaping = AdminSchemas['Shaping']
/** One recorded request (GET /__admin/requests, the event stream): admin-openapi.yaml's `JournalEntry`. */
export type JournalEntry = AdminSchemas['JournalEntry']
/** GET /__admin/requests: the page, the cursor `next` and `dropped`; admin-openapi.yaml's `RequestList`. */
export type RequestList = AdminSchemas['RequestList']
/** GET /__admin/requests.har: a HAR 1.2 document, admin-openapi.yaml's `Har`. */
export type Har = AdminSchemas['Har']
/** One entry of a HAR: admin-openapi.yaml's `HarEntry`. */
export type HarEntry = AdminSchemas['HarEntry']
/** A HAR header or query parameter: admin-openapi.yaml's `HarPair`. */
export type HarPair = AdminSchemas['HarPair']
/** GET /__admin/pact: a Pact V4 document, admin-openapi.yaml's `PactDocument`. */
export type PactDocument = AdminSchemas['PactDocument']
/** One interaction of a Pact V4 document: admin-openapi.yaml's `PactInteraction`. */
export type PactInteraction = AdminSchemas['PactInteraction']
/** A provider state of a pact: admin-openapi.yaml's `ProviderState`. */
export type ProviderState = AdminSchemas['ProviderState']
/** The body of POST /__admin/provider-states: admin-openapi.yaml's `StateChangeRequest`. */
export type StateChangeRequest = AdminSchemas['StateChangeRequest']
