import { Hono } from 'hono'
import { jsonBody } from '../body/json-body.js'
import { insufficientStorage } from '../budget/insufficient-storage.js'
import { ApiError, badRequest } from '../http/errors.js'
import { toMiddleware } from '../http/stage.js'
import type { Transport } from '../http/transport.js'
import type { SessionAccess } from '../state/session-reader.js'
import { type FaultRule, type FaultRuleInput, maxFaultRules } from './fault-rules.js'
import type { FaultsSlice } from './faults-slice.js'

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

// A canonical decimal integer: no sign, no leading zero.
const RULE_ID = /^(0|[1-9][0-9]*)$/

/** The session's fault rules: POST one, GET them, DELETE one or all. */
export const faultRoutes = (deps: FaultDeps): Hono => {
  const { select, read } = deps.session
  const routes = new Hono()
  routes.post('/faults', select, toMiddleware(jsonBody(deps.bodyLimit, deps.transport)), async (c) => {
    const rule = deps.validateRule(c.get('body'))
    if (typeof rule === 'string') throw badRequest(`${rule}.`)
    const added = await read(c).addFault(rule)
    if (added === 'full') {
      throw new ApiError(507, `The session holds ${maxFaultRules} fault rules, the most it may; delete some first.`)
    }
    if ('refused' in added) throw insufficientStorage(added)
    return c.json(added, 201)
  })
  routes.get('/faults', select, async (c) => c.json({ faults: await read(c).listFaults() } satisfies FaultList))
  routes.delete('/faults', select, async (c) => {
    await read(c).clearFaults()
    return c.body(null, 204)
  })
  routes.delete('/faults/:id', select, async (c) => {
    const id = c.req.param('id')
    if (!RULE_ID.test(id) || !(await read(c).removeFault(Number(id)))) {
      throw new ApiError(404, `No fault rule with id ${id}.`)
    }
    return c.body(null, 204)
  })
  return routes
}
