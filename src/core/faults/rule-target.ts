import { bearerKey, keyFingerprint } from '../http/request/key-fingerprint.js'
import { peekJsonBody } from '../body/peek-body.js'
import { headerRecord } from '../http/header-list.js'
import { authorizationOf } from '../http/request/authorization.js'
import { queryParams } from '../http/request/query.js'
import type { RequestContext } from '../http/stage.js'
import type { Transport } from '../http/transport.js'
import type { SpecOperation } from '../spec/spec.js'
import type { FaultTarget } from './rule-check.js'
// The variables set here: the body read ahead, and its text (for the journal).
import type {} from '../body/read-body.js'
import { RequestFacts, requestFacts } from './rule-match.js'

/** The API key of the request and its fingerprint; undefined without a bearer token. */
export const apiKeyOf = (c: RequestContext): { key: string; fingerprint: string } | undefined => {
  const key = bearerKey(authorizationOf(c))
  return key === undefined ? undefined : { key, fingerprint: keyFingerprint(key) }
}

/**
 * What the session's rules are matched on: the operation, getPet's petId,
 * and the request's facts (API key, headers, query, JSON body fields), made
 * only if a rule with `when` asks.
 */
export const faultTarget = (
  c: RequestContext,
  operation: SpecOperation,
  transport: Transport,
  body?: unknown,
): FaultTarget => {
  const petId = c.req.param('petId')
  const facts = new RequestFacts(() => {
    const apiKey = apiKeyOf(c)
    return requestFacts({
      ...(apiKey && { apiKey }),
      headers: headerRecord(transport.requestHeaders(c)),
      query: queryParams(c),
      body,
    })
  })
  return { operation: operation.id, ...(petId !== undefined && { petId }), facts }
}

/**
 * The target of an operation with a request body: its JSON body read ahead,
 * so that rules may match its fields (see body/peek-body.ts), and kept for the
 * journal as the body stage keeps it (a rule may answer before that stage).
 */
export const faultTargetWithBody = (
  c: RequestContext,
  operation: SpecOperation,
  transport: Transport,
  bodyLimit: number,
): Promise<FaultTarget> =>
  peekJsonBody(c, transport, bodyLimit).then((body) => {
    if (body === undefined) return faultTarget(c, operation, transport)
    c.set('bodyText', body.text)
    if ('value' in body) c.set('body', body.value)
    return faultTarget(c, operation, transport, body.value)
  })
