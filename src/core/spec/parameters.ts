import type { SpecParameter } from './spec.js'
import { expectation } from './messages.js'

// Canonical decimal: no sign on zero, no leading zeros, no '+', no fraction or exponent.
const CANONICAL_INTEGER = /^(0|-?[1-9][0-9]*)$/

const FORMAT_RANGES: Record<string, [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
}

/** A parameter value after parsing: the typed value, or the sentence saying why not. */
export type ParsedParameter = { ok: true; value: unknown } | { ok: false; message: string }

const invalid = (param: SpecParameter, raw: string): ParsedParameter => ({
  ok: false,
  message: `${param.name} ${expectation(param.schema, 'text')} (got ${JSON.stringify(raw)})`,
})

const fromText = (param: SpecParameter, raw: string): ParsedParameter => {
  if (param.schema.type !== 'integer') return { ok: true, value: raw }
  if (!CANONICAL_INTEGER.test(raw)) return invalid(param, raw)
  const range = FORMAT_RANGES[param.schema.format ?? '']
  // Up to 15 digits the Number is exact (and compares exactly with a bigint): no BigInt needed.
  const value = raw.length <= 15 ? Number(raw) : BigInt(raw)
  if (range && (value < range[0] || value > range[1])) return invalid(param, raw)
  // Beyond 2^53 the number is rounded; callers look it up only if Number.isSafeInteger.
  return { ok: true, value: Number(raw) }
}

// An int64 beyond 2^53 passed the exact BigInt range check already; Ajv's int64
// format (safe integers, for JSON bodies) would refuse it, so only bounds apply.
const accepts = (param: SpecParameter, value: unknown): boolean => {
  if (typeof value !== 'number' || Number.isSafeInteger(value)) return param.validate(value)
  const { minimum = -Infinity, maximum = Infinity } = param.schema
  return value >= minimum && value <= maximum
}

/**
 * Parses the raw values of one parameter (all occurrences of it) by its
 * schema, strictly: integers only in canonical decimal form, one value only.
 */
export const parseParameter = (param: SpecParameter, raws: readonly string[]): ParsedParameter => {
  if (raws.length === 0) {
    if (param.required) return { ok: false, message: `${param.name} is required` }
    return { ok: true, value: param.schema.default }
  }
  if (raws.length > 1) return { ok: false, message: `${param.name} must be given at most once` }
  const raw = raws[0] as string
  const parsed = fromText(param, raw)
  if (!parsed.ok) return parsed
  return accepts(param, parsed.value) ? parsed : invalid(param, raw)
}
