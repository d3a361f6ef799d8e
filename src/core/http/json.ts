import { isLosslessNumber, isSafeNumber, LosslessNumber, parse } from 'lossless-json'
import { ownCopy } from './own-copy.js'

/** Whether a Content-Type names JSON (`application/json`, parameters and case aside). */
export const isJsonType = (contentType: string | null | undefined): boolean =>
  contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json'

/**
 * Whether a parsed JSON value is an object with fields: not null, not an array, and not a number
 * JavaScript cannot hold exactly (`1e999` is kept as a LosslessNumber, an object with a `value`).
 */
export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !isLosslessNumber(value)

/** A parse result: the value, or why the text is not JSON. */
export type JsonResult = { ok: true; value: unknown } | { ok: false; message: string }

// A number JavaScript cannot hold exactly stays a LosslessNumber (an object), so
// schema validation rejects it by type instead of it being silently rounded.
const exactNumber = (text: string): number | LosslessNumber =>
  isSafeNumber(text) ? Number(text) : new LosslessNumber(text)

// lossless-json builds a string a character at a time: a rope of one node per character (a pet's
// 1,000-character name held 32 KB, one of two-byte characters 53 KB). What is kept is a flat copy.
const flat = (_key: string, value: unknown): unknown =>
  typeof value === 'string' && value.length > 1 ? ownCopy(value) : value

/**
 * Parses JSON without losing precision: numbers that would round are kept
 * apart, `__proto__` stays an ordinary own key, duplicate keys are an error.
 */
export const parseJsonExact = (text: string): JsonResult => {
  try {
    return { ok: true, value: parse(text, flat, exactNumber) }
  } catch (error) {
    // Deep nesting overflows the recursive parser's stack: still just bad input.
    const reason = error instanceof RangeError ? 'it is nested too deeply' : (error as Error).message
    return { ok: false, message: `Request body is not valid JSON: ${reason}` }
  }
}
