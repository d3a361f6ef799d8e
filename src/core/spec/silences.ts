import { ApiError, badRequest } from '../http/errors.js'
import { type NewPet, petStatuses, type PetStatus } from './pet.js'

/**
 * How the mock reads the places where the interface specification is silent
 * and more than one reading is plausible (docs/reference/spec-silences.md,
 * "Switches"). Each is a switch; the defaults are the mock's original
 * decisions.
 */
export interface SpecSilences {
  /** A `limit` outside its bounds: 400 (`reject`), or brought to the nearest bound (`clamp`). */
  limitRange: 'reject' | 'clamp'
  /** The status a pet created without one gets: none (no `status` key), or that value. */
  defaultStatus: 'none' | PetStatus
  /** Which `categoryId`s a new pet may have: any, or only these (else 400). */
  categories: 'any' | readonly number[]
  /** Fields of a createPet body the contract does not define: ignored (not stored), or a 400. */
  unknownFields: 'ignore' | 'reject'
}

/** Today's readings. */
export const silenceDefaults: Readonly<SpecSilences> = Object.freeze({
  limitRange: 'reject',
  defaultStatus: 'none',
  categories: 'any',
  unknownFields: 'ignore',
})

/** The switches' keys, in the order they are listed. */
export const silenceKeys: readonly (keyof SpecSilences)[] = [
  'limitRange',
  'defaultStatus',
  'categories',
  'unknownFields',
]

const CANONICAL_INTEGER = /^(0|-?[1-9][0-9]*)$/

/** A switch's value from its command-line text, or the sentence saying what it must be. */
export const parseSilence = <K extends keyof SpecSilences>(
  key: K,
  text: string,
): { ok: true; value: SpecSilences[K] } | { ok: false; expected: string } => {
  const ok = (value: unknown) => ({ ok: true as const, value: value as SpecSilences[K] })
  switch (key) {
    case 'limitRange':
      return text === 'reject' || text === 'clamp' ? ok(text) : { ok: false, expected: 'reject or clamp' }
    case 'defaultStatus':
      return text === 'none' || (petStatuses as readonly string[]).includes(text)
        ? ok(text)
        : { ok: false, expected: `none, ${petStatuses.join(', ')}` }
    case 'unknownFields':
      return text === 'ignore' || text === 'reject' ? ok(text) : { ok: false, expected: 'ignore or reject' }
    default: {
      if (text === 'any') return ok('any')
      const ids = text.split(',').map((s) => s.trim())
      const valid = ids.every((id) => CANONICAL_INTEGER.test(id) && Number.isSafeInteger(Number(id)))
      return valid && ids.length > 0
        ? ok([...new Set(ids.map(Number))])
        : { ok: false, expected: 'any, or a comma-separated list of integer categoryIds' }
    }
  }
}

/** A switch's value as written on a command line (the inverse of {@link parseSilence}). */
export const formatSilence = <K extends keyof SpecSilences>(key: K, value: SpecSilences[K]): string =>
  Array.isArray(value) ? value.join(',') : String(value)

/**
 * Checks readings given as an options object (the msw host's, or createApp's):
 * every one filled in, or a sentence naming the bad one.
 */
export const checkSilences = (input: unknown): SpecSilences | string => {
  if (input === undefined) return { ...silenceDefaults }
  if (!input || typeof input !== 'object' || Array.isArray(input)) return 'silences must be an object'
  const result: Record<string, unknown> = { ...silenceDefaults }
  for (const [key, value] of Object.entries(input)) {
    const known = silenceKeys.find((k) => k === key)
    if (!known) return `silences.${key} is not a known switch (${silenceKeys.join(', ')})`
    if (value === undefined) continue
    const text = Array.isArray(value) && value.length > 0 ? value.join(',') : value
    const parsed = parseSilence(known, typeof text === 'string' ? text : '')
    if (!parsed.ok) return `silences.${key} must be ${parsed.expected} (got ${JSON.stringify(value)})`
    result[key] = parsed.value
  }
  return result as unknown as SpecSilences
}

/**
 * A validated createPet body read by the switches: an unknown field or
 * category refused (400 naming it), the default status filled in.
 */
export const readNewPet = (body: NewPet, silences: SpecSilences, knownFields: readonly string[]): NewPet => {
  if (silences.unknownFields === 'reject') {
    const unknown = Object.keys(body).find((key) => !knownFields.includes(key))
    if (unknown !== undefined) {
      throw badRequest(`${unknown} is not a field of a new pet (fields: ${knownFields.join(', ')}).`)
    }
  }
  if (silences.categories !== 'any' && !silences.categories.includes(body.categoryId)) {
    throw new ApiError(
      400,
      `categoryId ${body.categoryId} is not a known category (known: ${silences.categories.join(', ')}).`,
    )
  }
  if (body.status === undefined && silences.defaultStatus !== 'none') return { ...body, status: silences.defaultStatus }
  return body
}

const clampToBounds = (value: number, minimum: number | undefined, maximum: number | undefined): number =>
  Math.min(maximum ?? Infinity, Math.max(minimum ?? -Infinity, value))

/**
 * The raw values of a bounded integer query parameter (`limit`) under
 * `--limit-range clamp`: one canonical integer beyond a bound becomes that
 * bound; anything else (not an integer, given twice) is left for validation
 * to refuse.
 */
export const clampedRaws = (
  schema: { type?: string; minimum?: number; maximum?: number },
  raws: readonly string[],
): readonly string[] => {
  const raw = raws[0]
  if (schema.type !== 'integer' || raws.length !== 1 || raw === undefined || !CANONICAL_INTEGER.test(raw)) return raws
  const value = Number(raw)
  const clamped = clampToBounds(value, schema.minimum, schema.maximum)
  return clamped === value ? raws : [String(clamped)]
}
