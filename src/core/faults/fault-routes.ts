import { Hono } from '../http/hono-app.js'
import { jsonBody } from '../body/json-body.js'
import { insufficientStorage } from '../budget/insufficient-storage.js'
import { ApiError, badRequest } from '../http/errors.js'
import { toMiddleware } from '../http/stage.js'
import type { Transport } from '../http/transport.js'
import type { SessionAccess } from '../http/request/session-reader.js'
import { checkRuleName, type FaultRule, type FaultRuleInput } from './rule-check.js'
import { rulesFull } from './rules-full.js'
import type { FaultsSlice } from './faults-slice.js'
import { timelineOf } from './timeline-phase.js'
// The variable read here: the body the body stage parsed.
import type {} from '../body/read-body.js'

/** GET /__admin/faults. */
export interface FaultList {
  faults: FaultRule[]
}

/** What the fault-rule routes work on. */
export interface FaultDeps {
  /** The session a route works on (X-Mock-Session). */
  session: SessionAccess<FaultsSlice>
  /** Largest body read, in bytes (413 beyond). */
  bodyLimit: number
  transport: Transport
  /** Checks a fault rule: the rule, or a sentence naming the field. */
  validateRule(input: unknown): FaultRuleInput | string
}

// Digits only: a rule id (names may not be digits only). A canonical one has no leading zero.
const DIGITS = /^[0-9]+$/
const RULE_ID = /^(0|[1-9][0-9]*)$/

/** The session's fault rules: POST one, PUT one by name, GET them, DELETE one (by id or name) or all. */
export const faultRoutes = (deps: FaultDeps): Hono => {
  const { select, read, open, change } = deps.session
  const routes = new Hono()
  const body = toMiddleware(jsonBody(deps.bodyLimit, deps.transport))
  const checked = (input: unknown): FaultRuleInput => {
    const rule = deps.validateRule(input)
    if (typeof rule === 'string') throw badRequest(`${rule}.`)
    return rule
  }
  // A change is checked before its session is selected: a refused one makes none.
  routes.post('/faults', change, body, async (c) => {
    const rule = checked(c.get('body'))
    const added = await (await open(c)).addFault(rule)
    if (added === 'full') throw rulesFull()
    if ('refused' in added) throw insufficientStorage(added)
    return c.json(added, 201)
  })
  routes.put('/faults/:rule', change, body, async (c) => {
    const name = c.req.param('rule')
    const problem = checkRuleName(name)
    if (problem) throw badRequest(`${problem}.`)
    const rule = checked(c.get('body'))
    const put = await (await open(c)).putFault(name, rule)
    if (put === 'full') throw rulesFull()
    if ('refused' in put) throw insufficientStorage(put)
    return c.json(put.rule, put.created ? 201 : 200)
  })
  // The rules that hold timelines are the timeline routes' (timeline-phase.ts): not listed, not cleared here.
  routes.get('/faults', select, async (c) => {
    const faults = (await read(c).listFaults()).filter((rule) => timelineOf(rule) === undefined)
    return c.json({ faults } satisfies FaultList)
  })
  routes.delete('/faults', select, async (c) => {
    const session = read(c)
    const timelines = await session.timelineRules()
    if (timelines.length === 0) await session.clearFaults()
    else {
      const rules = (await session.listFaults()).filter((rule) => timelineOf(rule) === undefined)
      for (const rule of rules) await session.removeFault(rule.id)
    }
    return c.body(null, 204)
  })
  // A rule of a session that does not exist is not there to delete: 404, and no session is made.
  routes.delete('/faults/:rule', change, async (c) => {
    const ref = c.req.param('rule')
    if (DIGITS.test(ref)) {
      if (!RULE_ID.test(ref) || !(await (await open(c, 'read')).removeFault(Number(ref)))) {
        throw new ApiError(404, `No fault rule with id ${ref}.`)
      }
    } else if (checkRuleName(ref) !== undefined || !(await (await open(c, 'read')).removeNamedFault(ref))) {
      throw new ApiError(404, `No fault rule named ${JSON.stringify(ref.slice(0, 80))}.`)
    }
    return c.body(null, 204)
  })
  return routes
}
