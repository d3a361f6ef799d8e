import { Hono } from '../http/hono-app.js'
import { jsonBody } from '../body/json-body.js'
import { badRequest } from '../http/errors.js'
import { objectBody } from '../http/object-body.js'
import { toMiddleware } from '../http/stage.js'
import type { Transport } from '../http/transport.js'
import type { SessionAccess } from '../http/request/session-reader.js'
import { clockAt, realClock } from './clock.js'
import { clockSettingExpectation, isClockSetting } from './clock-range.js'
import type { ClockSlice } from './clock-slice.js'
import { instantExpectation, parseInstant } from './instant.js'
// The variable read here: the body the body stage parsed.
import type {} from '../body/read-body.js'

/** The body of PUT /__admin/clock: an instant (ISO 8601 with a zone) and/or whether the clock stands still. */
export interface ClockRequest {
  now?: string
  frozen?: boolean
}

/** What the clock routes work on. */
export interface ClockDeps {
  /** The session a route works on (X-Mock-Session). */
  session: SessionAccess<ClockSlice>
  /** Largest body read, in bytes (413 beyond). */
  bodyLimit: number
  transport: Transport
}

const shape = '{ "now"?: "<instant>", "frozen"?: boolean }'

/** `{ now?, frozen? }`, checked: the instant to show and whether it stands still, each when given. */
const clockRequest = (body: unknown): { at?: number; frozen?: boolean } => {
  const { now, frozen } = objectBody(body, ['now', 'frozen'] satisfies (keyof ClockRequest)[], shape)
  if (now === undefined && frozen === undefined) throw badRequest(`now or frozen is required: ${shape}.`)
  const at = typeof now === 'string' ? parseInstant(now) : undefined
  if (now !== undefined && at === undefined) {
    throw badRequest(`now must be ${instantExpectation} (got ${JSON.stringify(now)}).`)
  }
  if (at !== undefined && !isClockSetting(at)) {
    throw badRequest(`now must be ${clockSettingExpectation} (got ${JSON.stringify(now)}).`)
  }
  if (frozen !== undefined && typeof frozen !== 'boolean') {
    throw badRequest(`frozen must be true or false (got ${JSON.stringify(frozen)}).`)
  }
  return { ...(at !== undefined && { at }), ...(frozen !== undefined && { frozen: frozen as boolean }) }
}

/** The session's mock clock: GET it, PUT an instant (frozen or advancing), DELETE to go back to real time. */
export const clockRoutes = (deps: ClockDeps): Hono => {
  const { select, read, open, change } = deps.session
  const routes = new Hono()
  routes.get('/clock', select, async (c) => c.json(await read(c).clockView()))
  // A change is checked before its session is selected: a refused one makes none.
  routes.put('/clock', change, toMiddleware(jsonBody(deps.bodyLimit, deps.transport)), async (c) => {
    const asked = clockRequest(c.get('body'))
    const clock = await open(c)
    const [now, { frozen: wasFrozen }] = await Promise.all([clock.now(), clock.clockView()])
    // Setting only `now` starts an advancing clock; setting only `frozen` stops or restarts the current one.
    const frozen = asked.frozen ?? (asked.at === undefined ? wasFrozen : false)
    return c.json(await clock.setClock(clockAt(asked.at ?? now, frozen)))
  })
  routes.delete('/clock', select, async (c) => c.json(await read(c).setClock(realClock)))
  return routes
}
