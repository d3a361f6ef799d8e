import type { AdminAnswer, AdminInput } from './admin-operations.js'
import type { JournalQuery } from '../types/index.js'

// Every request and answer as admin-openapi.yaml describes it (src/generated/admin-types.ts): the client
// cannot drift from the document its answers are checked against (test/client/admin-types.test.ts).
type ClockRequest = AdminInput<'setClock'>
type ClockView = AdminAnswer<'getClock', 200>
type CoverageReport = AdminAnswer<'getCoverage', 200>
type DeprecationList = AdminAnswer<'getDeprecations', 200>
type DeprecationReport = DeprecationList['deprecations'][number]
type FaultList = AdminAnswer<'listFaultRules', 200>
type FaultRule = AdminAnswer<'addFaultRule', 201>
type FaultRuleInput = AdminInput<'addFaultRule'>
type Har = AdminAnswer<'exportHar', 200>
type Timeline = AdminAnswer<'getTimeline', 200>
type TimelineInput = AdminInput<'putTimeline'>
type TimelineList = AdminAnswer<'listTimelines', 200>
type Health = AdminAnswer<'getHealth', 200>
type RequestList = AdminAnswer<'listRequests', 200>
type JournalEntry = RequestList['requests'][number]
type PactDocument = AdminAnswer<'getPact', 200>
type StateBody = AdminAnswer<'getState', 200>
type Pet = StateBody['pets'][number]
type RateLimitView = AdminAnswer<'getRateLimit', 200>
type SeedRequest = AdminInput<'seedPets'>
type StateChangeRequest = AdminInput<'setUpProviderState'>
type SessionList = AdminAnswer<'listSessions', 200>
type SessionSummary = SessionList['sessions'][number]
type Snapshot = AdminAnswer<'getSnapshot', 200>
import { type AdminTarget, adminJson, adminText, adminVoid, type FetchLike, sendAdmin } from './admin-http.js'
import type { RequestMatcher } from './request-filter.js'
import type { ReadJournal, WaitForOptions } from './wait-for.js'
import { MockAdminError } from './mock-admin-error.js'

/** Options of {@link createMockClient}. */
export interface MockClientOptions {
  /** The mock's origin, e.g. `http://127.0.0.1:4010` (a path prefix, for a mock behind a proxy, is kept). */
  baseUrl: string | URL
  /** Sent as `Authorization: Bearer <token>` when the mock runs with --admin-token. */
  adminToken?: string
  /** The session (`X-Mock-Session`) the client works on; the default session when absent. */
  session?: string
  /** The `fetch` to send with; default: the platform's. */
  fetch?: FetchLike
}

/** What `snapshot.put` takes: `format` and `pets` at least; the server fills in the rest. */
export type SnapshotInput = Pick<Snapshot, 'format' | 'pets'> & Partial<Snapshot>

/** A typed client of the mock's /__admin API; every failure throws `MockAdminError`. */
export interface MockClient {
  /** The mock's base URL, without a trailing slash. */
  readonly baseUrl: string
  /** The session this client works on; undefined for the default one. */
  readonly session: string | undefined
  /** GET /__admin/health (needs no admin token). */
  health(): Promise<Health>
  /** Back to the start-up pets, rules, empty journal and id counter (POST /__admin/reset). */
  reset(): Promise<void>
  /** Fake pets from a seed instead of the current ones (POST /__admin/seed). */
  seed(request: SeedRequest): Promise<void>
  faults: {
    /** Installs a rule; resolves with it, its id and `remaining` included. */
    add(rule: FaultRuleInput): Promise<FaultRule>
    /**
     * Sets the rule named `name` idempotently (PUT /__admin/faults/{name}): replaced in place (id and
     * order kept, `remaining` from the new `times`) when the session has one, else added; resolves
     * with the rule as stored and whether it was created (201) rather than replaced (200).
     */
    put(name: string, rule: FaultRuleInput): Promise<{ rule: FaultRule; created: boolean }>
    list(): Promise<FaultRule[]>
    /** Removes one rule by id or name; a `MockAdminError` 404 when there is none. */
    remove(rule: number | string): Promise<void>
    clear(): Promise<void>
  }
  timelines: {
    /**
     * Sets the timeline named `name` (PUT /__admin/timelines/{name}): phases on the session's mock
     * clock, or a preset; resolves with it, where it stands, and whether it was created (201).
     */
    put(name: string, timeline: TimelineInput): Promise<{ timeline: Timeline; created: boolean }>
    /** One timeline and the phase in force; a `MockAdminError` 404 when there is none. */
    get(name: string): Promise<Timeline>
    /** The timelines and the session clock's now. */
    list(): Promise<TimelineList>
    /** Stops and removes one; a `MockAdminError` 404 when there is none. */
    remove(name: string): Promise<void>
  }
  state: {
    /** Every pet of the session. */
    get(): Promise<Pet[]>
    /** Replaces every pet (validated like fixtures; 400 naming the field, 507 beyond --max-pets). */
    put(pets: readonly Pet[]): Promise<void>
  }
  requests: {
    /** The journal, newest first, filtered by the server. */
    list(query?: JournalQuery): Promise<JournalEntry[]>
    clear(): Promise<void>
    /**
     * Resolves with the oldest recorded request that matches, as soon as one
     * is recorded: the mock waits (`GET /__admin/requests?after=…&count=1&wait=…`),
     * the client does not poll; rejects after `timeoutMs` (default 5000) with a
     * `RequestNotReceivedError` listing what was received.
     */
    waitFor(matcher: RequestMatcher, options?: WaitForOptions): Promise<JournalEntry>
    /** How many recorded requests match (all of them when no matcher is given). */
    count(matcher?: RequestMatcher): Promise<number>
    /** The journal as HAR 1.2, oldest first (same filters as `list`): for Playwright's routeFromHAR and the like. */
    har(query?: JournalQuery): Promise<Har>
  }
  snapshot: {
    /** The session's whole world: pets, id counters, rules, latency, seed and generator position. */
    get(): Promise<Snapshot>
    /** The same as YAML, the text to commit next to a bug report. */
    yaml(): Promise<string>
    /** Restores a snapshot into the session, all or nothing: an object as JSON, a string as YAML. */
    put(snapshot: SnapshotInput | string): Promise<void>
  }
  clock: {
    /** The session's mock clock. */
    get(): Promise<ClockView>
    /** Sets the clock to `now` (then advancing, or standing still with `frozen: true`), or freezes/restarts it. */
    set(request: { now?: string | Date; frozen?: boolean }): Promise<ClockView>
    /** Back to real time. */
    reset(): Promise<ClockView>
  }
  rateLimit: {
    get(): Promise<RateLimitView>
    /** Limits every API key to a rate such as `100/m` or `10/30s`, with fresh windows. */
    set(rate: string): Promise<RateLimitView>
    /** No limit. */
    clear(): Promise<RateLimitView>
  }
  /** Per deprecated operation: who still calls it, how often, when. */
  deprecations(): Promise<DeprecationReport[]>
  /** Contract coverage of the session: each documented response and input class, with its count (GET /__admin/coverage). */
  coverage(): Promise<CoverageReport>
  /** Forgets the session's coverage counts and kept interactions (DELETE /__admin/coverage). */
  clearCoverage(): Promise<void>
  /** The session's distinct interactions as a Pact V4 document (GET /__admin/pact); `provider` defaults to the API's title. */
  pact(options: { consumer: string; provider?: string }): Promise<PactDocument>
  /** Sets up a provider state of a pact in the session, as the Pact verifier does (POST /__admin/provider-states). */
  providerState(change: StateChangeRequest): Promise<void>
  sessions: {
    /** Every session with its sizes, least recently used first; with a scoped token (a tenant's), those of its scope. */
    list(): Promise<SessionSummary[]>
    /**
     * Makes the session exist (POST /__admin/sessions/{name}): created with the start-up pets when new or
     * expired, else only marked used; resolves with its summary. Admin reads of a session no request has
     * made yet answer 404 until then.
     */
    open(name: string): Promise<SessionSummary>
    /** Drops a session and everything in it; 404 when unknown, 400 for the default one. */
    delete(name: string): Promise<void>
  }
  /** The same client bound to another session. */
  withSession(name: string): MockClient
}

const baseUrlOf = (value: string | URL): string => {
  const text = String(value)
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new TypeError(`baseUrl must be an absolute http(s) URL (got ${JSON.stringify(text)}).`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`baseUrl must be an http(s) URL (got ${JSON.stringify(text)}).`)
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}

/**
 * A typed client of a running petstore-mock's /__admin API. Uses only the
 * platform's `fetch` (or the one given): runs in Node and in browsers.
 */
export const createMockClient = (options: MockClientOptions): MockClient => {
  const target: AdminTarget = {
    baseUrl: baseUrlOf(options.baseUrl),
    adminToken: options.adminToken,
    session: options.session,
    fetch: options.fetch ?? ((url, init) => globalThis.fetch(url, init)),
  }
  // A session's base URL (…/sessions/<name>) names its session as the option would.
  const byUrl = /\/sessions\/([^/]+)$/.exec(target.baseUrl)?.[1]
  const where = `session ${JSON.stringify(options.session ?? byUrl ?? 'default')} of ${target.baseUrl}`
  const listRequests = async (query: JournalQuery = {}, signal?: AbortSignal): Promise<JournalEntry[]> =>
    (await adminJson<RequestList>(target, { method: 'GET', path: '/requests', query: { ...query }, signal })).requests
  // A session the code under test has not used yet has no journal (404 session_not_found): nothing received so far.
  // (Here rather than in wait-for.ts, which then shares no module with the app: msw's bundle.)
  const readJournal: ReadJournal = (query, signal) =>
    adminJson<RequestList>(target, { method: 'GET', path: '/requests', query: { ...query }, signal }).catch(
      (error: unknown) => {
        if (error instanceof MockAdminError && error.code === 'session_not_found') return undefined
        // The mock's wait ended first: nothing new passed the filters.
        if (error instanceof MockAdminError && error.status === 408 && query.after !== undefined) {
          return { requests: [], next: query.after }
        }
        throw error
      },
    )
  const receivedSoFar = async (query?: JournalQuery): Promise<JournalEntry[]> =>
    (await readJournal(query ?? {}))?.requests ?? []
  return {
    baseUrl: target.baseUrl,
    session: options.session,
    health: () => adminJson<Health>(target, { method: 'GET', path: '/health' }),
    reset: () => adminVoid(target, { method: 'POST', path: '/reset' }),
    seed: (request) => adminVoid(target, { method: 'POST', path: '/seed', json: request }),
    faults: {
      add: (rule) => adminJson<FaultRule>(target, { method: 'POST', path: '/faults', json: rule }),
      put: async (name, rule) => {
        const path = `/faults/${encodeURIComponent(name)}`
        const res = await sendAdmin(target, { method: 'PUT', path, json: rule })
        return { rule: (await res.json()) as FaultRule, created: res.status === 201 }
      },
      list: async () => (await adminJson<FaultList>(target, { method: 'GET', path: '/faults' })).faults,
      remove: (id) => adminVoid(target, { method: 'DELETE', path: `/faults/${encodeURIComponent(id)}` }),
      clear: () => adminVoid(target, { method: 'DELETE', path: '/faults' }),
    },
    timelines: {
      put: async (name, timeline) => {
        const res = await sendAdmin(target, {
          method: 'PUT',
          path: `/timelines/${encodeURIComponent(name)}`,
          json: timeline,
        })
        return { timeline: (await res.json()) as Timeline, created: res.status === 201 }
      },
      get: (name) => adminJson<Timeline>(target, { method: 'GET', path: `/timelines/${encodeURIComponent(name)}` }),
      list: () => adminJson<TimelineList>(target, { method: 'GET', path: '/timelines' }),
      remove: (name) => adminVoid(target, { method: 'DELETE', path: `/timelines/${encodeURIComponent(name)}` }),
    },
    state: {
      get: async () => (await adminJson<StateBody>(target, { method: 'GET', path: '/state' })).pets,
      put: (pets) => adminVoid(target, { method: 'PUT', path: '/state', json: { pets } }),
    },
    requests: {
      list: (query) => listRequests(query),
      clear: () => adminVoid(target, { method: 'DELETE', path: '/requests' }),
      // The matching is loaded on first use: the msw bundle carries the client, and most set-ups never wait.
      waitFor: async (matcher, waitOptions = {}) =>
        (await import('./wait-for.js')).waitForRequest(readJournal, matcher, waitOptions, where),
      count: async (matcher = {}) => {
        const { matches, serverQuery } = await import('./request-filter.js')
        return (await receivedSoFar(serverQuery(matcher))).filter((entry) => matches(entry, matcher)).length
      },
      har: (query = {}) => adminJson<Har>(target, { method: 'GET', path: '/requests.har', query: { ...query } }),
    },
    snapshot: {
      get: () => adminJson<Snapshot>(target, { method: 'GET', path: '/snapshot' }),
      yaml: () => adminText(target, { method: 'GET', path: '/snapshot', accept: 'application/yaml' }),
      put: (snapshot) =>
        adminVoid(target, {
          method: 'PUT',
          path: '/snapshot',
          ...(typeof snapshot === 'string'
            ? { text: { contentType: 'application/yaml', body: snapshot } }
            : { json: snapshot }),
        }),
    },
    clock: {
      get: () => adminJson<ClockView>(target, { method: 'GET', path: '/clock' }),
      set: ({ now, frozen }) => {
        const json: ClockRequest = {}
        if (now !== undefined) json.now = now instanceof Date ? now.toISOString() : now
        if (frozen !== undefined) json.frozen = frozen
        return adminJson<ClockView>(target, { method: 'PUT', path: '/clock', json })
      },
      reset: () => adminJson<ClockView>(target, { method: 'DELETE', path: '/clock' }),
    },
    rateLimit: {
      get: () => adminJson<RateLimitView>(target, { method: 'GET', path: '/rate-limit' }),
      set: (rate) => adminJson<RateLimitView>(target, { method: 'PUT', path: '/rate-limit', json: { rate } }),
      clear: () => adminJson<RateLimitView>(target, { method: 'DELETE', path: '/rate-limit' }),
    },
    deprecations: async () =>
      (await adminJson<DeprecationList>(target, { method: 'GET', path: '/deprecations' })).deprecations,
    coverage: () => adminJson<CoverageReport>(target, { method: 'GET', path: '/coverage' }),
    clearCoverage: () => adminVoid(target, { method: 'DELETE', path: '/coverage' }),
    pact: ({ consumer, provider }) =>
      adminJson<PactDocument>(target, {
        method: 'GET',
        path: '/pact',
        query: { consumer, ...(provider !== undefined && { provider }) },
      }),
    providerState: async (change) => {
      await adminJson<unknown>(target, { method: 'POST', path: '/provider-states', json: change })
    },
    sessions: {
      list: async () => (await adminJson<SessionList>(target, { method: 'GET', path: '/sessions' })).sessions,
      open: (name) =>
        adminJson<SessionSummary>(target, { method: 'POST', path: `/sessions/${encodeURIComponent(name)}` }),
      delete: (name) => adminVoid(target, { method: 'DELETE', path: `/sessions/${encodeURIComponent(name)}` }),
    },
    withSession: (name) => createMockClient({ ...options, session: name }),
  }
}
