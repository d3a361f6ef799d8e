import { errorCodeFor } from '../../../core/http/errors.js'
import { formatSilence, type SpecSilences } from '../../../core/spec/silences.js'
import { silenceSwitches } from '../../config/silence-switches.js'
import type { ObservedAnswer } from '../../../core/spec/answer-drifts.js'
import { validBody } from './bad-bodies.js'
import { contractDrifts } from '../../../core/spec/answer-drifts.js'
import type { RunContext } from './run-context.js'

/** What verify saw where the spec is silent, and the mock's setting that reproduces it. */
export interface SilenceObservation {
  /** The switch (`limitRange`), or `errorCodes`. */
  key: keyof SpecSilences | 'errorCodes'
  observed: string
  /** The flag and value that reproduce it (`--limit-range clamp`); absent when no setting does. */
  setting?: string
  note?: string
}

const flagOf = (key: keyof SpecSilences) => silenceSwitches.find((s) => s.key === key)!.flag

const settingOf = <K extends keyof SpecSilences>(key: K, value: SpecSilences[K]): string =>
  `--${flagOf(key)} ${formatSilence(key, value)}`

/** An answer to a probe also has to keep to the contract for the status it got. */
const keepsContract = (ctx: RunContext, operation: string, title: string, answer: ObservedAnswer): void => {
  const op = ctx.operation(operation)
  if (!op || !op.statuses.includes(answer.status)) return
  const drifts = contractDrifts(ctx.settings.spec, op, answer, answer.status)
  if (drifts.length > 0) ctx.results.push({ id: `silence.${title}`, operation, title, outcome: 'drift', drifts })
}

const limitRange = async (ctx: RunContext): Promise<SilenceObservation> => {
  const statuses: number[] = []
  for (const limit of [0, 101]) {
    const answer = await ctx.send({ method: 'GET', path: `/pets?limit=${limit}`, authorization: ctx.bearer })
    keepsContract(ctx, 'listPets', `listPets?limit=${limit}`, answer)
    statuses.push(answer.status)
  }
  const observed = `limit=0 → ${statuses[0]}, limit=101 → ${statuses[1]}`
  if (statuses.every((s) => s === 400))
    return { key: 'limitRange', observed, setting: settingOf('limitRange', 'reject') }
  if (statuses.every((s) => s === 200))
    return { key: 'limitRange', observed, setting: settingOf('limitRange', 'clamp') }
  return { key: 'limitRange', observed, note: 'no setting of the mock answers this way' }
}

// A status drift (200 for 201) is reported by the scenario: the reading is still the one the body shows.
const created = (answer: ObservedAnswer): boolean => answer.status >= 200 && answer.status < 300

const create = async (ctx: RunContext, title: string, body: Record<string, unknown>): Promise<ObservedAnswer> => {
  const answer = await ctx.send({
    method: 'POST',
    path: '/pets',
    authorization: ctx.bearer,
    body: JSON.stringify(body),
  })
  keepsContract(ctx, 'createPet', title, answer)
  return answer
}

const writeProbes = async (
  ctx: RunContext,
  categoryId: number,
  categories: number[],
): Promise<SilenceObservation[]> => {
  const createPet = ctx.operation('createPet')!
  const valid = validBody(ctx.settings.spec, createPet, categoryId)
  const { status: _, ...withoutStatus } = valid
  const observations: SilenceObservation[] = []

  const plain = await create(ctx, 'createPet without status', withoutStatus)
  const status = (plain.json as { status?: unknown } | undefined)?.status
  if (!created(plain)) {
    observations.push({
      key: 'defaultStatus',
      observed: `createPet without status → ${plain.status}`,
      note: 'not observed',
    })
  } else if (status === undefined) {
    observations.push({
      key: 'defaultStatus',
      observed: 'a pet created without status has none',
      setting: settingOf('defaultStatus', 'none'),
    })
  } else {
    const known = typeof status === 'string' && ['available', 'pending', 'sold'].includes(status)
    observations.push({
      key: 'defaultStatus',
      observed: `a pet created without status gets ${JSON.stringify(status)}`,
      ...(known
        ? { setting: settingOf('defaultStatus', status as SpecSilences['defaultStatus']) }
        : { note: 'no setting of the mock gives this' }),
    })
  }

  const extra = await create(ctx, 'createPet with an unknown field', { ...valid, nickname: 'petstore-mock verify' })
  const echoed = (extra.json as { nickname?: unknown } | undefined)?.nickname !== undefined
  observations.push(
    extra.status === 400
      ? { key: 'unknownFields', observed: 'an unknown field → 400', setting: settingOf('unknownFields', 'reject') }
      : created(extra) && !echoed
        ? {
            key: 'unknownFields',
            observed: `an unknown field → ${extra.status}, not stored`,
            setting: settingOf('unknownFields', 'ignore'),
          }
        : {
            key: 'unknownFields',
            observed: `an unknown field → ${extra.status}${echoed ? ', stored and answered' : ''}`,
            note: 'no setting of the mock answers this way',
          },
  )

  const unknownCategory = 2147483647
  const category = await create(ctx, 'createPet with an unknown categoryId', { ...valid, categoryId: unknownCategory })
  observations.push(
    created(category)
      ? {
          key: 'categories',
          observed: `categoryId ${unknownCategory} → ${category.status}`,
          setting: settingOf('categories', 'any'),
        }
      : category.status === 400
        ? {
            key: 'categories',
            observed: `categoryId ${unknownCategory} → 400`,
            setting: settingOf('categories', categories.length > 0 ? categories : [categoryId]),
            note: 'the categories listed are those of the pets listPets answered',
          }
        : {
            key: 'categories',
            observed: `categoryId ${unknownCategory} → ${category.status}`,
            note: 'no setting of the mock answers this way',
          },
  )
  return observations
}

const errorCodes = (ctx: RunContext): SilenceObservation => {
  // Only the statuses the contract documents: another status is a drift or another silence, not a code value.
  const documented = new Set(ctx.settings.spec.operations.flatMap((op) => op.statuses))
  const seen = [...ctx.codes.entries()].filter(([status]) => documented.has(status)).sort(([a], [b]) => a - b)
  const observed = seen.map(([status, code]) => `${status} ${code}`).join(', ') || 'no Error answer seen'
  const differing = seen.filter(([status, code]) => errorCodeFor(status) !== code)
  return differing.length === 0
    ? { key: 'errorCodes', observed, note: 'as the mock answers' }
    : {
        key: 'errorCodes',
        observed,
        note: `the mock answers ${differing.map(([s]) => `${s} ${errorCodeFor(s)}`).join(', ')}; no setting changes it`,
      }
}

/**
 * Observes how the deployment behaves where the spec is silent: a limit
 * out of range, and (with writes) the status of a pet created without one,
 * an unknown field, an unknown categoryId; then the `code` values seen.
 */
export const probeSilences = async (
  ctx: RunContext,
  listed: readonly { categoryId?: unknown }[],
  categoryId: number,
): Promise<SilenceObservation[]> => {
  const observations: SilenceObservation[] = []
  if (ctx.operation('listPets')) observations.push(await limitRange(ctx))
  if (ctx.operation('createPet')) {
    if (ctx.settings.writes) {
      const categories = [
        ...new Set(listed.map((p) => p.categoryId).filter((c): c is number => Number.isSafeInteger(c))),
      ].sort((a, b) => a - b)
      observations.push(...(await writeProbes(ctx, categoryId, categories)))
    } else {
      for (const key of ['defaultStatus', 'unknownFields', 'categories'] as const) {
        observations.push({ key, observed: 'not observed', note: 'skipped: --no-writes' })
      }
    }
  }
  observations.push(errorCodes(ctx))
  return observations
}
