import { errorOfAnswer, errorOfBuilt } from '../http/answer-error.js'

/**
 * Why the mock refused a request, as the metrics count it (`reason` of
 * `petstore_mock_refusals_total`): a closed set, so that the label stays bounded.
 *
 * - `sessions_quota`, `memory_quota`, `streams_quota`, `held_quota`: a tenant at its quota (tenants/);
 * - `session_cap`: 503 `too_many_sessions` (`--max-sessions`, or the share of the sessions of no tenant);
 * - `memory_budget`: 507 `insufficient_storage` of the memory budget (`--max-memory`);
 * - `capacity`: another 507 (`--max-pets`, the fault rules a session holds);
 * - `streams_cap`: a cap of event streams (a session's 429, the server's 503);
 * - `rate_limit`: 429 `too_many_requests` of `--rate-limit`;
 * - `unauthorized`: 401; `session_forbidden`: 403 of a key reaching another tenant's session;
 *   `forbidden`: another 403 (an admin token's scope).
 */
export type RefusalReason =
  | 'sessions_quota'
  | 'memory_quota'
  | 'streams_quota'
  | 'held_quota'
  | 'session_cap'
  | 'memory_budget'
  | 'capacity'
  | 'streams_cap'
  | 'rate_limit'
  | 'unauthorized'
  | 'session_forbidden'
  | 'forbidden'

/** Every {@link RefusalReason}, in the order hosts may index them by. */
export const refusalReasons: readonly RefusalReason[] = [
  'sessions_quota',
  'memory_quota',
  'streams_quota',
  'held_quota',
  'session_cap',
  'memory_budget',
  'capacity',
  'streams_cap',
  'rate_limit',
  'unauthorized',
  'session_forbidden',
  'forbidden',
]

// A quota refusal names the quota in its message, `… its quota (quota.sessions) …` (tenants.md).
const quotaNamed = /\(quota\.(sessions|memoryMiB|streams|held)\)/

const quotaReasons: Readonly<Record<string, RefusalReason>> = {
  sessions: 'sessions_quota',
  memoryMiB: 'memory_quota',
  streams: 'streams_quota',
  held: 'held_quota',
}

/**
 * The reason of a refusal, from its status and its `Error` body's `code` and `message`;
 * undefined for an answer that is no refusal (a 2xx, a 404, a bad request, a fault
 * injected on purpose is told apart by the caller). The one place answers become reasons.
 */
export const refusalReasonOf = (status: number, code: string, message: string): RefusalReason | undefined => {
  switch (status) {
    case 401:
      return 'unauthorized'
    case 403:
      return code === 'session_forbidden' ? 'session_forbidden' : 'forbidden'
    case 429: {
      if (code === 'quota_exceeded') return quotaReasons[quotaNamed.exec(message)?.[1] ?? ''] ?? 'sessions_quota'
      return /event streams/.test(message) ? 'streams_cap' : 'rate_limit'
    }
    case 503:
      if (code === 'too_many_sessions') return 'session_cap'
      return code === 'quota_exceeded'
        ? (quotaReasons[quotaNamed.exec(message)?.[1] ?? ''] ?? 'sessions_quota')
        : /event streams/.test(message)
          ? 'streams_cap'
          : undefined
    case 507:
      if (quotaNamed.exec(message)?.[1] === 'memoryMiB') return 'memory_quota'
      return /--max-memory/.test(message) ? 'memory_budget' : 'capacity'
    default:
      return undefined
  }
}

/** Whether a status may be a refusal: the only ones {@link refusalReasonOf} reads a body for. */
export const mayBeRefusal = (status: number): boolean =>
  status === 401 || status === 403 || status === 429 || status === 503 || status === 507

/** The reason of an answer the mock built, read at once; undefined when it is no refusal or its body is not at hand. */
export const refusalOfBuilt = (res: Response): RefusalReason | undefined => {
  if (!mayBeRefusal(res.status)) return undefined
  // An answer hono copied (bearerAuth's 401) keeps no parts: its status alone still tells a 401 or a 403.
  const parts = errorOfBuilt(res) ?? { code: '', message: '' }
  return refusalReasonOf(res.status, parts.code, parts.message)
}

/** The reason of any answer (the control plane's, built by hono): its body read from a copy when needed. */
export const refusalOfAnswer = async (res: Response): Promise<RefusalReason | undefined> => {
  if (!mayBeRefusal(res.status)) return undefined
  const parts = await errorOfAnswer(res)
  return parts && refusalReasonOf(res.status, parts.code, parts.message)
}
