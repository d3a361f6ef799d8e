import type { AdminRequest } from '../../client/admin-http.js'
import type { ToolSource } from './tool-schemas.js'

/** What a tool asks: an admin request (through the typed client's transport) or a Pet Store operation. */
export type ToolCall =
  | { kind: 'admin'; session: string | undefined; request: AdminRequest }
  | { kind: 'operation'; session: string; apiKey: string | undefined; method: string; path: string; body?: unknown }

/** One MCP tool: its name (part of the contract, issue 42), what it says, where its schema comes from. */
export interface ToolSpec {
  name: string
  description: string
  /** Which document describes its route. */
  document: 'admin' | 'contract'
  source: ToolSource
  /** The request(s) it makes; tools with steps of their own (explain_request, clock_set's advance) are in tools.ts. */
  call?: (args: Args) => ToolCall
}

/** A tool's arguments, checked against its input schema before any call. */
export type Args = Record<string, any>

const enc = encodeURIComponent

const admin = (
  method: AdminRequest['method'],
  path: string | ((a: Args) => string),
  options: { query?: (a: Args) => AdminRequest['query']; json?: (a: Args) => unknown; session?: boolean } = {},
): ((a: Args) => ToolCall) => {
  return (a) => ({
    kind: 'admin',
    session: options.session === false ? undefined : (a['session'] as string),
    request: {
      method,
      path: typeof path === 'string' ? path : path(a),
      ...(options.query && { query: options.query(a) }),
      ...(options.json && { json: options.json(a) }),
    },
  })
}

const without = (a: Args, ...names: string[]): Args =>
  Object.fromEntries(Object.entries(a).filter(([name]) => !names.includes(name)))

const journalQuery = (a: Args): AdminRequest['query'] => without(a, 'session') as AdminRequest['query']

/** Every tool, in the order tools/list gives them. */
export const toolSpecs: readonly ToolSpec[] = [
  {
    name: 'sessions_list',
    description: "List the sessions (those of your token's scope), least recently used first, with their sizes.",
    document: 'admin',
    source: { operation: 'listSessions' },
    call: admin('GET', '/sessions', { session: false }),
  },
  {
    name: 'session_create',
    description: 'Create a session (with the start-up pets), or mark an existing one used.',
    document: 'admin',
    source: { operation: 'createSession', rename: { name: 'session' } },
    call: admin('POST', (a) => `/sessions/${enc(a['session'])}`, { session: false }),
  },
  {
    name: 'session_delete',
    description: 'Drop a session and everything in it (404 when unknown, 400 for the default one).',
    document: 'admin',
    source: { operation: 'dropSession', rename: { name: 'session' } },
    call: admin('DELETE', (a) => `/sessions/${enc(a['session'])}`, { session: false }),
  },
  {
    name: 'state_get',
    description: 'Every pet of the session.',
    document: 'admin',
    source: { operation: 'getState' },
    call: admin('GET', '/state'),
  },
  {
    name: 'state_replace',
    description: 'Replace every pet of the session (checked like fixtures: 400 naming the field).',
    document: 'admin',
    source: { operation: 'replaceState', body: 'spread' },
    call: admin('PUT', '/state', { json: (a) => without(a, 'session') }),
  },
  {
    name: 'seed',
    description: 'Replace the pets of the session with `count` fake ones drawn from a seed.',
    document: 'admin',
    source: { operation: 'seedPets', body: 'spread' },
    call: admin('POST', '/seed', { json: (a) => without(a, 'session') }),
  },
  {
    name: 'rules_list',
    description: 'The fault rules of the session, in matching order, with their remaining counts.',
    document: 'admin',
    source: { operation: 'listFaultRules' },
    call: admin('GET', '/faults'),
  },
  {
    name: 'rule_set',
    description:
      'Set the rule of a name, idempotently (PUT /__admin/faults/{name}): `rule` is the full rule language — a status or ' +
      'transport fault (hang, drip…) or an own answer (with `breaksContract`), `when` (operation, API key, body…), ' +
      '`times`, `probability`, `delayMs`.',
    document: 'admin',
    source: { operation: 'putFaultRule', rename: { rule: 'name' }, body: { as: 'rule' } },
    call: admin('PUT', (a) => `/faults/${enc(a['name'])}`, { json: (a) => a['rule'] }),
  },
  {
    name: 'rule_delete',
    description: 'Remove one rule by its name or id (404 when there is none).',
    document: 'admin',
    source: { operation: 'removeFaultRule', rename: { rule: 'name' } },
    call: admin('DELETE', (a) => `/faults/${enc(a['name'])}`),
  },
  {
    name: 'rules_clear',
    description: 'Remove every fault rule of the session.',
    document: 'admin',
    source: { operation: 'clearFaultRules' },
    call: admin('DELETE', '/faults'),
  },
  {
    name: 'timelines_list',
    description:
      "The session's fault timelines (issue 43), each with the phase in force on its mock clock, and the clock's now.",
    document: 'admin',
    source: { operation: 'listTimelines' },
    call: admin('GET', '/timelines'),
  },
  {
    name: 'timeline_get',
    description:
      'One timeline: its phases, the phase in force, when it began and when the next begins (404 when unknown).',
    document: 'admin',
    source: { operation: 'getTimeline' },
    call: admin('GET', (a) => `/timelines/${enc(a['name'])}`),
  },
  {
    name: 'timeline_set',
    description:
      'Set a timeline of a name, idempotently (PUT /__admin/timelines/{name}): `timeline` is `{ start, phases: [{ for, rule? }], ' +
      'repeat }` on the mock clock (each phase one fault rule, ramps as `{ from, to }`), or a preset (`outage`, `flapping`, ' +
      '`slow-degradation`, `getpet-brownout`).',
    document: 'admin',
    source: { operation: 'putTimeline', body: { as: 'timeline' } },
    call: admin('PUT', (a) => `/timelines/${enc(a['name'])}`, { json: (a) => a['timeline'] }),
  },
  {
    name: 'timeline_delete',
    description: 'Stop and remove a timeline (404 when there is none).',
    document: 'admin',
    source: { operation: 'removeTimeline' },
    call: admin('DELETE', (a) => `/timelines/${enc(a['name'])}`),
  },
  {
    name: 'clock_get',
    description: "The session's mock clock.",
    document: 'admin',
    source: { operation: 'getClock' },
    call: admin('GET', '/clock'),
  },
  {
    name: 'clock_set',
    description:
      "Set the session's clock: `now` (then advancing, or standing still with `frozen: true`), freeze or restart it " +
      '(`frozen`), or move it forward by `advanceMs` from where it is.',
    document: 'admin',
    source: {
      operation: 'setClock',
      body: 'spread',
      extra: {
        advanceMs: {
          type: 'integer',
          minimum: 0,
          maximum: 3_153_600_000_000,
          description: 'Moves the clock forward by this many milliseconds from its current time (not with `now`).',
        },
      },
    },
  },
  {
    name: 'rate_limit_set',
    description: 'Limit every API key of the session to a rate such as `100/m` or `10/30s`, with fresh windows.',
    document: 'admin',
    source: { operation: 'setRateLimit', body: 'spread' },
    call: admin('PUT', '/rate-limit', { json: (a) => without(a, 'session') }),
  },
  {
    name: 'journal_read',
    description:
      'The recorded requests of the session, newest first, filtered (operation, status, method, path, since, until); ' +
      'with `after` (a cursor: an entry id) oldest first from it, and with `wait` the mock waits for `count` new ones.',
    document: 'admin',
    source: { operation: 'listRequests' },
    call: admin('GET', '/requests', { query: journalQuery }),
  },
  {
    name: 'explain_request',
    description:
      'For one journal entry (`id`): which stage shaped its answer, which rule and why it matched, the validation errors ' +
      "in the contract's words, and what to change to get a different answer.",
    document: 'admin',
    source: {
      operation: 'listRequests',
      // Only the session of listRequests' parameters; `id` is the JournalEntry's id.
      sessionOnly: true,
      extra: { id: { $admin: '/components/schemas/JournalEntry/properties/id' } },
      extraRequired: ['id'],
    },
  },
  {
    name: 'coverage_read',
    description: 'Contract coverage of the session: each documented response and input class, with its count.',
    document: 'admin',
    source: { operation: 'getCoverage' },
    call: admin('GET', '/coverage'),
  },
  {
    name: 'pact_export',
    description: "The session's distinct interactions as a Pact V4 document.",
    document: 'admin',
    source: { operation: 'getPact' },
    call: admin('GET', '/pact', { query: (a) => without(a, 'session') as AdminRequest['query'] }),
  },
  {
    name: 'bundle_export',
    description:
      "The session's whole world as a snapshot (pets, ids, rules, latency, seed, clock): load it with bundle_load.",
    document: 'admin',
    source: { operation: 'getSnapshot' },
    call: admin('GET', '/snapshot'),
  },
  {
    name: 'bundle_load',
    description:
      'Restore a snapshot (from bundle_export) into the session, all or nothing; the session is made if needed.',
    document: 'admin',
    source: { operation: 'restoreSnapshot', body: { as: 'bundle' } },
    call: admin('PUT', '/snapshot', { json: (a) => a['bundle'] }),
  },
  {
    name: 'provider_state_set',
    description: 'Set up a provider state of a pact in the session, as the Pact verifier does.',
    document: 'admin',
    source: { operation: 'setUpProviderState', body: 'spread' },
    call: admin('POST', '/provider-states', { json: (a) => without(a, 'session') }),
  },
  ...(['listPets', 'createPet', 'getPet'] as const).map((operation): ToolSpec => ({
    name: operation,
    description: {
      listPets: 'GET /v1/pets in the session, answered exactly as /v1 does: { status, headers, body }.',
      createPet:
        'POST /v1/pets in the session (`body`: the NewPet), answered exactly as /v1 does: { status, headers, body }.',
      getPet:
        'GET /v1/pets/{petId} in the session (deprecated: the answer keeps Deprecation and Sunset), answered exactly as /v1 does.',
    }[operation],
    document: 'contract',
    source: {
      operation,
      ...(operation === 'createPet' && { body: { as: 'body' } }),
      extra: {
        session: { $admin: '/components/schemas/SessionName' },
        apiKey: {
          type: 'string',
          minLength: 1,
          description: 'The bearer token sent (Authorization: Bearer …); default: one the mock accepts.',
        },
      },
      extraRequired: ['session'],
    },
    call: (a) => ({
      kind: 'operation',
      session: a['session'],
      apiKey: a['apiKey'],
      method: operation === 'createPet' ? 'POST' : 'GET',
      path:
        operation === 'getPet'
          ? `/v1/pets/${enc(String(a['petId']))}`
          : `/v1/pets${queryOf({ limit: a['limit'], status: a['status'] })}`,
      ...(operation === 'createPet' && { body: a['body'] }),
    }),
  })),
]

const queryOf = (values: Record<string, unknown>): string => {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(values)) if (value !== undefined) params.set(name, String(value))
  const text = params.toString()
  return text && `?${text}`
}
