import type { Context } from 'hono'
import { matchedRoutes } from 'hono/route'
import { errorOfBuilt } from '../http/answer-error.js'
import { errorCodeFor } from '../http/errors.js'
import { bearerKey, keyFingerprint } from '../http/request/key-fingerprint.js'
import type { Transport } from '../http/transport.js'
import type { LogFields } from '../log/log.js'
import { requestIdOf } from '../log/request-id.js'
import type { Tenancy } from '../tenants/tenancy.js'
import { namedSession } from './select-session.js'

/** What {@link requestFields} reads a request's fields from. */
export interface RequestFieldsOptions {
  tenancy: Tenancy
  transport: Transport
  /** --session-by-key: the /v1 key names the session. */
  byKey: boolean
  /** Each operation's id by `METHOD routePath` (`GET /v1/pets/:petId`): a /v1 line's action. */
  operations: ReadonlyMap<string, string>
}

/**
 * How a request ended, for a log line: `ok` below 400, else its `Error` body's code; the status's
 * documented code when the body is not at hand (an answer hono copied: bearerAuth's 401).
 */
export const outcomeOf = (res: Response): string =>
  res.status < 400 ? 'ok' : (errorOfBuilt(res)?.code ?? errorCodeFor(res.status))

// The operation a /v1 request was routed to: the last route hono matched that is no middleware.
const operationOf = (c: Context, operations: ReadonlyMap<string, string>): string | undefined => {
  const routes = matchedRoutes(c)
  for (let i = routes.length - 1; i >= 0; i--) {
    const { method, path } = routes[i]!
    if (method !== 'ALL') return operations.get(`${method} ${path}`)
  }
  return undefined
}

/**
 * The fields of a request's log line (log/log.ts LogFields), read once it was answered: its id,
 * the client's address, the tenant and session it named, the fingerprint of the key or token it
 * presented, what it asked (a /v1 operation's id, else `METHOD path`) and how it ended.
 */
export const requestFields =
  ({ tenancy, transport, byKey, operations }: RequestFieldsOptions) =>
  (c: Context): LogFields => {
    const fields: LogFields = { requestId: requestIdOf(c) }
    const client = transport.clientAddress?.(c)
    if (client !== undefined) fields.client = client
    const session = namedSession(c, byKey && !c.req.path.startsWith('/__admin'))
    const tenant = tenancy.ownerOf(session)?.name
    if (tenant !== undefined) fields.tenant = tenant
    const key = bearerKey(c.req.header('Authorization'))
    if (key !== undefined) fields.token = keyFingerprint(key)
    if (session !== undefined) fields.session = session
    fields.action = operationOf(c, operations) ?? `${c.req.method} ${c.req.path}`
    fields.outcome = outcomeOf(c.res)
    return fields
  }
