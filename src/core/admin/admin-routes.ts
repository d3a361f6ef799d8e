import type { MiddlewareHandler } from 'hono'
import { Hono } from '../http/hono-app.js'
import type { YamlCodec } from '../body/yaml-data.js'
import type { JsonDataReader } from '../body/data-body.js'
import { clockRoutes } from '../time/clock-routes.js'
import type { CoverageModel } from '../coverage/coverage-model.js'
import { coverageRoutes } from '../coverage/coverage-routes.js'
import type { FaultRuleInput } from '../faults/rule-check.js'
import { faultRoutes } from '../faults/fault-routes.js'
import { timelineRoutes } from '../faults/timelines/timeline-routes.js'
import { toMiddleware } from '../http/stage.js'
import type { Transport } from '../http/transport.js'
import { harRoutes } from '../journal/har-routes.js'
import { requestsRoutes } from '../journal/requests-routes.js'
import type { StreamRegistry } from '../journal/stream/stream-registry.js'
import type { LocalShares } from '../tenants/local-shares.js'
import { streamRoutes } from '../journal/stream/stream-routes.js'
import { deprecationRoutes } from '../deprecation/deprecation-routes.js'
import { pactRoutes } from '../coverage/pact-routes.js'
import { adminPanelRoutes } from '../served/panel-routes.js'
import { stateRoutes } from '../pets/state-routes.js'
import type { ProxyStats } from '../proxy/proxy-stats.js'
import { rateLimitRoutes } from '../rate-limit/rate-limit-routes.js'
import type { SessionState, SessionStore } from '../sessions/port.js'
import { adminSessionAccess } from './admin-session.js'
import { sessionRoutes } from '../sessions/session-routes.js'
import type { Snapshot } from '../sessions/snapshot.js'
import { snapshotRoutes } from '../sessions/snapshot-routes.js'
import type { Pet } from '../spec/pet.js'
import type { Spec } from '../spec/spec.js'
import type { SessionAccess } from '../http/request/session-reader.js'
import { healthRoutes } from './health-routes.js'
import { adminQueries } from '../../generated/admin-query.js'
import { documentRoutes } from '../served/document-routes.js'
import { knownQuery } from './known-query.js'
import type { BudgetReport } from '../budget/memory-budget.js'
import type { BudgetPort } from '../budget/budget-port.js'
import type { MaybePromise } from '../async/maybe-promise.js'

/** What the admin API works on. */
export interface AdminDeps {
  sessions: SessionStore
  operations: readonly string[]
  bodyLimit: number
  /** Most pets a session holds (--max-pets): a change beyond it is refused before its session is selected. */
  maxPets: number
  transport: Transport
  version: string
  /** The memory budget's figures, for health. */
  memory(): MaybePromise<BudgetReport>
  /** The memory budget of this process (event-stream backlogs are charged to it). */
  budget?: BudgetPort
  /** Checks a fault rule: the rule, or a sentence naming the field. */
  validateRule(input: unknown): FaultRuleInput | string
  /** Checks `{ pets: [...] }` like fixtures; throws SeedError. */
  validateState(input: unknown): Promise<Pet[]>
  /** Checks a snapshot: complete, or a sentence naming the field. */
  validateSnapshot(input: unknown): Promise<Snapshot | string>
  /** Snapshots as YAML; none: JSON only. */
  yaml?: YamlCodec
  /** The host's reader of JSON data bodies; none: parsed on the event loop. */
  jsonData?: JsonDataReader
  /** Guards every route but health and the panel's files: admin tokens and their scopes (access/admin-scopes.ts). */
  guard?: MiddlewareHandler
  /** The control plane is open on a non-loopback address by choice: health says so. */
  open?: boolean
  /** With --proxy: its counts, shown by health. */
  proxy?: ProxyStats
  /** The contract: the Pact file's provider and answers' schemas. */
  spec: Spec
  /** What contract coverage counts (the coverage stage counts by the same model). */
  coverage: CoverageModel
  /** Checks a pet like fixtures (a provider state's): the pet, or a sentence naming the field. */
  checkPet(value: unknown, where: string): Pet | string
  /** The event streams (and their count, for metrics); default: the routes' own. */
  streams?: StreamRegistry
  /** The app's held requests, journal waits among them, by tenant; default: a pool of the routes' own. */
  held?: LocalShares
}

/**
 * The control plane under /__admin, the routes of each feature: health and
 * the panel (unguarded), then fault rules, sessions and reset, state and
 * seed, journal, clock, rate limit, deprecations, event stream, HAR,
 * snapshots, coverage, Pact files and provider states. Each works on the session the request selects, as the slice of
 * it the feature owns.
 */
export const adminRoutes = (deps: AdminDeps): Hono => {
  const session: SessionAccess<SessionState> = adminSessionAccess(deps.sessions)
  const routes = { ...deps, session }
  const admin = new Hono()
  admin.route('/', healthRoutes(deps))
  admin.route('/', adminPanelRoutes(deps))
  if (deps.guard) admin.use('*', deps.guard)
  admin.use('*', knownQuery(adminQueries))
  admin.route(
    '/',
    documentRoutes(() => import('../../generated/admin-document.js').then((m) => m.adminDocument)),
  )
  admin.route('/', faultRoutes(routes))
  admin.route('/', timelineRoutes(routes))
  admin.route('/', sessionRoutes(routes))
  admin.route('/', stateRoutes(routes))
  admin.route('/', requestsRoutes(routes))
  admin.route('/', clockRoutes(routes))
  admin.route('/', rateLimitRoutes(routes))
  admin.route('/', deprecationRoutes(routes))
  admin.route('/', streamRoutes(routes, deps.streams))
  admin.route('/', harRoutes(routes))
  admin.route('/', snapshotRoutes(routes))
  admin.route('/', coverageRoutes(routes))
  admin.route('/', pactRoutes(routes))
  return admin
}
