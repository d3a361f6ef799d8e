import type { Context } from 'hono'
import { ApiError, defaultMessageFor } from '../http/errors.js'
import { type FaultKind, type FaultRule, type FaultTarget, holdsRequest, maxDelayMs } from './rule-check.js'
import { type MaybePromise, whenReady } from '../async/maybe-promise.js'
import { noteShaping, type Shaping } from '../notes/request-notes.js'
import { goneError } from '../spec/operation-lifecycle.js'
import { parsePreferences } from './preferences.js'
import { queryParams } from '../http/request/query.js'
import { respond } from '../http/respond.js'
import type { SpecOperation } from '../spec/spec.js'
import type { Transport } from '../http/transport.js'
import { wait } from './latency.js'
import { type Answer, type Next, type OnError, type RequestContext, settled, type Stage } from '../http/stage.js'
import type { SessionName, SessionReader } from '../http/request/session-reader.js'
import type { FaultsSlice } from './faults-slice.js'
import { hasOwnAnswer, injectedStatuses, type PreparedAnswer, prepareAnswer } from './rule-answer.js'
import { faultTarget, faultTargetWithBody } from './rule-target.js'
import { drip, hang } from './slow-faults.js'
import type { PhaseFault } from './timeline-take.js'
import { ruleTargets } from './fault-rules.js'
import type { ClockSlice } from '../time/clock-slice.js'
import { heldRefusal, type LocalShares, type Release } from '../tenants/local-shares.js'
import type { Tenant } from '../tenants/tenant.js'

/** Statuses any operation may be forced to, beyond those it documents. */
export const extraStatuses = injectedStatuses

/** The realm of the API's bearer challenge, repeated on injected 401s. */
export const apiRealm = 'petstore'

const DELAY = /^(0|[1-9][0-9]*)$/

interface Effect {
  status?: number
  delayMs?: number
  fault?: FaultKind
  /** A rule's own answer, sent instead of the mock's `Error`. */
  answer?: PreparedAnswer
  shaping: Shaping
}

const invalidControl = (message: string) => new ApiError(400, message, { code: 'invalid_mock_control' })

/** The per-request override (`Prefer: code=…, delay=…`, or `__code`/`__delay`; the query wins). */
const readOverride = (c: RequestContext, operation: SpecOperation, allowed: readonly number[]): Effect | undefined => {
  const prefer = c.req.header('Prefer')
  const preferences = prefer === undefined ? undefined : parsePreferences(prefer)
  const query = queryParams(c)
  const code = query['__code']?.[0] ?? preferences?.get('code')
  const delay = query['__delay']?.[0] ?? preferences?.get('delay')
  if (code === undefined && delay === undefined) return undefined
  const effect: Effect = { shaping: { by: 'override' } }
  if (code !== undefined) {
    if (!allowed.includes(Number(code)) || !/^\d{3}$/.test(code)) {
      throw invalidControl(
        `code must be one of ${allowed.join(', ')} for ${operation.id} (got ${JSON.stringify(code)}).`,
      )
    }
    effect.status = Number(code)
  }
  if (delay !== undefined) {
    if (!DELAY.test(delay) || Number(delay) > maxDelayMs) {
      throw invalidControl(
        `delay must be an integer number of milliseconds from 0 to ${maxDelayMs} (got ${JSON.stringify(delay)}).`,
      )
    }
    effect.delayMs = Number(delay)
  }
  effect.shaping = {
    by: 'override',
    ...(effect.status && { status: effect.status }),
    ...(effect.delayMs !== undefined && { delayMs: effect.delayMs }),
  }
  return effect
}

const ruleEffect = (rule: FaultRule | undefined): Effect | undefined => {
  if (!rule) return undefined
  const { status, delayMs, fault } = rule
  const own = status !== undefined && hasOwnAnswer(rule)
  return {
    ...(status !== undefined && { status }),
    ...(delayMs !== undefined && { delayMs }),
    ...(fault !== undefined && { fault }),
    ...(own && { answer: prepareAnswer({ ...rule, status }) }),
    shaping: {
      by: 'fault',
      // A timeline's phase names its timeline, phase and the phase's start instead of a rule id.
      ...((rule as PhaseFault).timelinePhase ? { timeline: (rule as PhaseFault).timelinePhase } : { ruleId: rule.id }),
      ...(status !== undefined && { status }),
      ...(delayMs !== undefined && { delayMs }),
      ...(fault !== undefined && { fault }),
      ...(own && { custom: true as const }),
      // Flagged wherever the answer is shown (journal, HAR, event stream, panel): not the provider's behaviour.
      ...(own && rule.breaksContract && { breaksContract: true as const }),
    },
  }
}

/** A rule's own answer, with the headers every answer of the request carries (deprecation, rate limit). */
const ownAnswer = (c: RequestContext, own: PreparedAnswer): Response => respond(c, own.text, own.status, own.headers)

/** The answer a real occurrence of `status` would give, headers included. */
const injectedError = (c: Context, operation: SpecOperation, status: number, allow: () => string): ApiError => {
  if (status === 410 && operation.sunset) return goneError(operation)
  const petId = c.req.param('petId')
  const message = status === 404 && petId !== undefined ? `No pet with id ${petId}.` : defaultMessageFor(status)
  const headers: Record<string, string> = {}
  if (status === 401) headers['WWW-Authenticate'] = `Bearer realm="${apiRealm}"`
  if (status === 405) headers['Allow'] = allow()
  if (status === 429 || status === 503) headers['Retry-After'] = '1'
  return new ApiError(status, message, { headers })
}

const truncated = async (res: Response): Promise<Response> => {
  const text = await res.text()
  const headers = new Headers(res.headers)
  headers.delete('Content-Length')
  return new Response(text.slice(0, Math.floor(text.length / 2)), { status: res.status, headers })
}

/**
 * The session's first rule that applies, else its timelines' phase in force that does. The timelines'
 * code loads on first use (timeline-take.ts: msw's bundle at start carries none of it).
 */
const takeRule = (
  faults: FaultsSlice & ClockSlice,
  target: FaultTarget,
  mayHold: boolean,
): MaybePromise<FaultRule | undefined> =>
  whenReady(faults.takeFault(target, mayHold), (rule) =>
    rule !== undefined
      ? rule
      : whenReady(faults.timelineRules(), (held) =>
          held.length === 0
            ? undefined
            : import('./timeline-take.js').then((m) => m.takeTimelinePhase(faults, held, target, ruleTargets)),
        ),
  )

/** Options of {@link mockControl}. */
export interface MockControlOptions {
  /** The methods of the operation's path, for the Allow of a forced 405. */
  allow: () => string
  /** Reads bodies; one that a rule on body fields read ahead of the body stage must answer that read again (body/peek-body.ts). */
  transport: Transport
  onError: OnError
  /** The request's session, as the faults see it, and its name (its tenant's). */
  session: SessionReader<FaultsSlice & ClockSlice & SessionName>
  /** The body limit: a body rules may look at is read up to it. */
  bodyLimit?: number
  /** The app's held requests (hang, drip, journal waits), shared out by tenant. */
  held: LocalShares
}

/**
 * What an effect does once its delay is over. `place`: the request's place among the held
 * requests, taken for a tenant's request before its rule; a hang of no tenant takes one here,
 * and is dropped at once when its share is full (as before tenants).
 */
const apply = (
  c: RequestContext,
  next: Next,
  effect: Effect,
  operation: SpecOperation,
  options: MockControlOptions,
  place: Release | undefined,
): Answer => {
  if (effect.fault === 'connection_reset') return options.transport.resetConnection(c)
  if (effect.fault === 'hang') {
    const release = place ?? options.held.take(undefined)
    return release ? hang(c, options.transport, effect.delayMs, release) : options.transport.resetConnection(c)
  }
  if (effect.fault === 'empty_response') return respond(c, null, 200, {})
  if (effect.answer !== undefined) return ownAnswer(c, effect.answer)
  if (effect.status !== undefined && effect.status >= 400)
    throw injectedError(c, operation, effect.status, options.allow)
  if (effect.fault === 'malformed_body') return whenReady(settled(c, next, options.onError), truncated)
  if (effect.fault === 'drip') return whenReady(settled(c, next, options.onError), (res) => drip(c, res, place))
  return next(c)
}

/**
 * Lets a request's own controls, else the session's first matching fault
 * rule, shape the answer: a delay, a forced status (the handler never runs,
 * so nothing changes), or a transport fault. Runs after authentication and
 * before the body is read and validated.
 */
export const mockControl = (operation: SpecOperation, options: MockControlOptions): Stage => {
  // An operation with a sunset may be forced to answer as it will once removed.
  const gone = operation.sunset ? [410] : []
  const allowed = [...new Set([...operation.statuses, ...extraStatuses, ...gone])].sort((a, b) => a - b)
  const shape = (c: RequestContext, next: Next, effect: Effect | undefined, place?: Release): Answer => {
    if (!effect) return next(c)
    noteShaping(c, effect.shaping)
    // A hang's delayMs is how long it holds the request, not a wait before it.
    if (!effect.delayMs || effect.fault === 'hang') return apply(c, next, effect, operation, options, place)
    return wait(effect.delayMs).then(() => apply(c, next, effect, operation, options, place))
  }
  /** The rule taken: a tenant's request it would hold beyond its quota is refused (the rule was not counted). */
  const withRule = (
    c: RequestContext,
    next: Next,
    rule: FaultRule | undefined,
    tenant: Tenant | undefined,
    place: Release | undefined,
  ): Answer => {
    if (!rule || !holdsRequest(rule)) {
      place?.()
      return shape(c, next, ruleEffect(rule))
    }
    if (tenant && !place) throw heldRefusal(tenant, options.held)
    return shape(c, next, ruleEffect(rule), place)
  }
  return (c, next) => {
    // An explicit override wins; rules are then neither consulted nor counted down.
    const override = readOverride(c, operation, allowed)
    if (override) return shape(c, next, override)
    // Most requests meet no rule: then no target is built and nothing is asked (measured on the hot path).
    const faults = options.session(c)
    if (!faults.mayFault()) return next(c)
    // A tenant's request takes its place among the held requests before its rule is taken: when
    // it has none (its quota.held), a rule that would hold it is not counted, and it is refused.
    const tenant = options.held.ownerOf(faults.name)
    const place = tenant && options.held.take(tenant)
    const mayHold = tenant === undefined || place !== undefined
    const taken = (rule: FaultRule | undefined) => withRule(c, next, rule, tenant, place)
    const failed = (error: unknown): never => {
      place?.()
      throw error
    }
    // The body, for rules on its fields, is read ahead of its stage (and answered again to it).
    if (operation.requestBody && options.bodyLimit !== undefined) {
      return faultTargetWithBody(c, operation, options.transport, options.bodyLimit)
        .then((target) => takeRule(faults, target, mayHold))
        .then(taken, failed)
    }
    const take = () => takeRule(faults, faultTarget(c, operation, options.transport), mayHold)
    // A place taken is given back whatever fails before the rule decides.
    return place ? Promise.resolve().then(take).then(taken, failed) : whenReady(take(), taken)
  }
}
