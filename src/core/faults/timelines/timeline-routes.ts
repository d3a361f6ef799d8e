import { Hono } from '../../http/hono-app.js'
import { jsonBody } from '../../body/json-body.js'
import { insufficientStorage } from '../../budget/insufficient-storage.js'
import { ApiError, badRequest } from '../../http/errors.js'
import { isJsonObject } from '../../http/json.js'
import { toMiddleware } from '../../http/stage.js'
import type { Transport } from '../../http/transport.js'
import type { SessionAccess } from '../../http/request/session-reader.js'
import type { Spec } from '../../spec/spec.js'
import type { ClockSlice } from '../../time/clock-slice.js'
import type { FaultsSlice } from '../faults-slice.js'
import { checkRuleName, type FaultRuleInput } from '../rule-check.js'
import { rulesFull } from '../rules-full.js'
import { phaseAt, type StoredTimeline, timelineOf, timelineRuleInput, timelineRuleName } from '../timeline-phase.js'
import { checkTimeline, type TimelineInput } from './timeline-check.js'
import { expandPreset } from './presets.js'
// The variable read here: the body the body stage parsed.
import type {} from '../../body/read-body.js'

/** Most timelines a session holds. */
export const maxTimelines = 20

/** A timeline as GET shows it: as PUT (its start resolved), and where it stands on the session's clock. */
export interface TimelineView {
  name: string
  start: string
  repeat: boolean
  seed: number
  preset?: Record<string, unknown>
  /** Each phase as PUT, and how long it lasts in ms (null: forever). */
  phases: { for: string | number; ms: number | null; rule?: unknown }[]
  /** `pending` before its start, `running` while a phase is in force, `ended` after its last phase. */
  state: 'pending' | 'running' | 'ended'
  /** The phase in force: its index (from 0), when it began, when the next begins (null: never), which loop (from 0). */
  current: { phase: number; startedAt: string; nextAt: string | null; cycle: number } | null
  /** When the first phase begins (pending), else null. */
  startsAt: string | null
}

const iso = (ms: number) => new Date(ms).toISOString()

/** Where `timeline` stands at `now`. */
export const timelineView = (timeline: StoredTimeline, now: number): TimelineView => {
  const at = phaseAt(timeline, now)
  const pending = now < timeline.start
  return {
    name: timeline.name,
    start: iso(timeline.start),
    repeat: timeline.repeat,
    seed: timeline.seed,
    ...(timeline.preset && { preset: timeline.preset }),
    phases: timeline.phases.map((phase) => ({ for: phase.for, ms: phase.ms, ...(phase.rule && { rule: phase.rule }) })),
    state: pending ? 'pending' : at ? 'running' : 'ended',
    current: at
      ? { phase: at.index, startedAt: iso(at.start), nextAt: at.end === null ? null : iso(at.end), cycle: at.cycle }
      : null,
    startsAt: pending ? iso(timeline.start) : null,
  }
}

/** What the timeline routes work on. */
export interface TimelineDeps {
  /** The session a route works on (X-Mock-Session). */
  session: SessionAccess<FaultsSlice & ClockSlice>
  bodyLimit: number
  transport: Transport
  /** Checks a fault rule (a phase's): the rule, or a sentence naming the field. */
  validateRule(input: unknown): FaultRuleInput | string
  /** The contract: the brownout preset reads getPet's Sunset from it. */
  spec: Spec
}

/**
 * A timeline from a PUT's body: `{ start?, phases, repeat?, seed? }` or `{ preset, …parameters }`;
 * or a sentence naming the field.
 */
export const timelineFromBody = (
  body: unknown,
  name: string,
  now: number,
  deps: Pick<TimelineDeps, 'validateRule' | 'spec'>,
): StoredTimeline | string => {
  if (!isJsonObject(body))
    return 'A timeline must be a JSON object: { "start"?, "phases", "repeat"?, "seed"? } or { "preset", … }'
  const input = body as Record<string, unknown>
  if (input['preset'] === undefined) return checkTimeline(input as TimelineInput, name, now, deps.validateRule)
  const expanded = expandPreset(input, deps.spec)
  if (typeof expanded === 'string') return expanded
  const checked = checkTimeline(expanded.parts, name, now, deps.validateRule)
  return typeof checked === 'string'
    ? `preset ${String(input['preset'])}: ${checked}`
    : { ...checked, preset: expanded.params }
}

const named = (name: string): string => {
  const problem = checkRuleName(name)
  if (problem) throw badRequest(`timeline ${problem}.`)
  return name
}

const missing = (name: string) => new ApiError(404, `No timeline named ${JSON.stringify(name.slice(0, 80))}.`)

/**
 * The session's timelines (issue 43): PUT one by name, GET one or all (each with the phase in force on
 * the session's clock), DELETE one. Each is kept as an inert fault rule (timeline-phase.ts).
 */
export const timelineRoutes = (deps: TimelineDeps): Hono => {
  const { select, read, open, change } = deps.session
  const routes = new Hono()
  const body = toMiddleware(jsonBody(deps.bodyLimit, deps.transport))
  const stored = async (session: FaultsSlice) =>
    (await session.timelineRules()).map((rule) => timelineOf(rule)).filter((t) => t !== undefined)

  // A PUT is checked before its session is selected, so that a refused one makes none; then read
  // again at the session's clock (`"start": "now"`), which is all the check's instant changes.
  routes.put('/timelines/:name', change, body, async (c) => {
    const name = named(c.req.param('name'))
    const checked = timelineFromBody(c.get('body'), name, 0, deps)
    if (typeof checked === 'string') throw badRequest(`${checked}.`)
    const session = await open(c)
    const now = await session.now()
    const timeline = timelineFromBody(c.get('body'), name, now, deps)
    if (typeof timeline === 'string') throw badRequest(`${timeline}.`)
    const held = await stored(session)
    if (!held.some((t) => t.name === name) && held.length >= maxTimelines) {
      throw new ApiError(507, `The session holds ${maxTimelines} timelines, the most it may; delete some first.`)
    }
    const put = await session.putFault(timelineRuleName(name), timelineRuleInput(timeline))
    if (put === 'full') throw rulesFull()
    if ('refused' in put) throw insufficientStorage(put)
    return c.json(timelineView(timeline, now), put.created ? 201 : 200)
  })
  routes.get('/timelines', select, async (c) => {
    const session = read(c)
    const [timelines, now] = await Promise.all([stored(session), session.now()])
    return c.json({ now: iso(now), timelines: timelines.map((t) => timelineView(t, now)) })
  })
  routes.get('/timelines/:name', select, async (c) => {
    const name = named(c.req.param('name'))
    const session = read(c)
    const [timelines, now] = await Promise.all([stored(session), session.now()])
    const timeline = timelines.find((t) => t.name === name)
    if (!timeline) throw missing(name)
    return c.json(timelineView(timeline, now))
  })
  // A timeline of a session that does not exist is not there to delete: 404, and no session is made.
  routes.delete('/timelines/:name', change, async (c) => {
    const name = named(c.req.param('name'))
    if (!(await (await open(c, 'read')).removeNamedFault(timelineRuleName(name)))) throw missing(name)
    return c.body(null, 204)
  })
  return routes
}
