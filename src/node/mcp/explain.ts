import type { AdminRequest } from '../../client/admin-http.js'
import type { ErrorBody } from '../../types/index.js'

/** explain_request's own refusal (no entry of that id): an `Error` body as a route's. */
export class ExplainError extends Error {
  constructor(readonly body: ErrorBody) {
    super(body.message)
  }
}

/** What explaining reads: the session's admin routes (GET only), and the entry's id. */
export interface ExplainInput {
  read(request: AdminRequest): Promise<Record<string, any>>
  id: number
}

/** The explanation: the stage, the rule and why, the contract's words, what to change. */
export interface Explanation {
  [key: string]: unknown
  id: number
  operation: string | null
  status: number
  /** The stage of the /v1 chain (docs/internals/architecture.md) that shaped the answer. */
  stage: string
  because: string
  rule?: Record<string, unknown>
  matched?: string[]
  /** The validation or refusal message of the answer's `Error` body, in the contract's words. */
  errors?: string[]
  change: string[]
}

type Entry = Record<string, any>

// The stage that answered with each error status when no control shaped it (the chain's order:
// auth → session → rate-limit → … → sunset → body → validation → handler).
const stageOfStatus: Record<number, [stage: string, change: string]> = {
  401: ['auth', 'Send an API key the mock accepts (the apiKey argument, or leave it out for the default).'],
  400: ['validation', 'Send what openapi.yaml asks for: the message names the field.'],
  404: ['handler', 'Ask for a pet the session has (state_get lists them) or create it first.'],
  410: [
    'sunset',
    'The operation is past its Sunset on the session clock: clock_set an earlier time, or move to its replacement.',
  ],
  413: ['body', 'Send a smaller body.'],
  415: ['body', 'Send Content-Type: application/json.'],
  429: ['rate limit', 'Wait for the window to pass, or rate_limit_set a higher rate.'],
  503: ['session', 'The session cap is reached: session_delete an unused session.'],
}

const whyMatched = (rule: Record<string, any>, entry: Entry): string[] => {
  const why: string[] = []
  if (rule['operation'] !== undefined) why.push(`operation is ${rule['operation']}`)
  if (rule['petId'] !== undefined) why.push(`petId is ${rule['petId']}`)
  const when = (rule['when'] ?? {}) as Record<string, any>
  if (when['apiKey'] !== undefined) {
    const fingerprint = typeof when['apiKey'] === 'string' ? "the rule's key" : when['apiKey'].fingerprint
    why.push(`the API key sent (${entry['apiKeyFingerprint'] ?? 'none'}) is ${fingerprint}`)
  }
  for (const [name, value] of Object.entries(when['headers'] ?? {}))
    why.push(`header ${name} is ${JSON.stringify(value)}`)
  for (const [name, value] of Object.entries(when['query'] ?? {})) why.push(`query ${name} is ${JSON.stringify(value)}`)
  if (when['body'] !== undefined) why.push(`the body has ${JSON.stringify(when['body'])}`)
  if (rule['probability'] !== undefined) why.push(`the seeded draw fell under probability ${rule['probability']}`)
  if (why.length === 0) why.push('the rule has no condition: it matches every request')
  return why
}

/** Explains one journal entry of a session, from its own admin routes (the journal, then the rules). */
export const explainEntry = async ({ read, id }: ExplainInput): Promise<Explanation> => {
  // The cursor answers the entries after it, oldest first: the first is the one asked for, if it is kept.
  const page = await read({ method: 'GET', path: '/requests', query: { after: id - 1, limit: 1 } })
  const entry = (page['requests'] as Entry[] | undefined)?.find((e) => e['id'] === id)
  if (entry === undefined) {
    throw new ExplainError({
      code: 'not_found',
      status: 404,
      message: `The session's journal has no entry ${id} (journal_read lists the ones it keeps).`,
    })
  }
  const status = entry['status'] as number
  const base = { id, operation: (entry['operation'] as string | null) ?? null, status }
  const body = entry['response']?.['body']
  const errors =
    body && typeof body === 'object' && typeof body['message'] === 'string' ? [body['message'] as string] : undefined
  const shaping = ((entry['shapedBy'] ?? []) as Entry[]).find((s) => s['by'] !== 'latency')
  if (shaping?.['by'] === 'fault') {
    const { faults } = (await read({ method: 'GET', path: '/faults' })) as { faults: Record<string, any>[] }
    const rule = faults.find((r) => r['id'] === shaping['ruleId'])
    const label = rule?.['name'] !== undefined ? `${rule['name']} (id ${shaping['ruleId']})` : `id ${shaping['ruleId']}`
    const what = shaping['fault'] ?? `status ${shaping['status'] ?? status}`
    return {
      ...base,
      stage: 'mock controls',
      because: `Fault rule ${label} answered ${what}${shaping['custom'] ? ' with its own answer' : ''}${
        shaping['breaksContract'] ? ' (breaksContract: it may break openapi.yaml)' : ''
      }.`,
      ...(rule
        ? { rule, matched: whyMatched(rule, entry) }
        : { matched: ['the rule is gone since (times used up, or deleted)'] }),
      ...(errors && { errors }),
      change: [
        rule?.['name'] !== undefined
          ? `rule_delete { name: "${rule['name']}" }`
          : `rule_delete { name: "${shaping['ruleId']}" }`,
        'or call so that the rule does not match (another API key, operation or body), or rule_set it with times/probability.',
      ],
    }
  }
  if (shaping?.['by'] === 'override') {
    return {
      ...base,
      stage: 'mock controls',
      because: `The request asked for it itself (a Prefer header or __code): status ${shaping['status'] ?? status}.`,
      change: ['Send the request without Prefer: code=… / __code.'],
    }
  }
  if (status >= 200 && status < 400) {
    const delay = ((entry['shapedBy'] ?? []) as Entry[]).find((s) => s['by'] === 'latency')
    return {
      ...base,
      stage: 'handler',
      because: `No control shaped it: the mock answered as openapi.yaml describes${delay ? `, after the session's latency of ${delay['delayMs']} ms` : ''}.`,
      change: ['rule_set a fault rule (status, fault, own answer) matching this operation to get another answer.'],
    }
  }
  const [stage, change] = stageOfStatus[status] ?? ['handler', 'See the Error body: it names what to change.']
  return {
    ...base,
    stage,
    because: `The ${stage} stage refused it: ${errors?.[0] ?? `status ${status}`}.`,
    ...(errors && { errors }),
    change: [change],
  }
}
