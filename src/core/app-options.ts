import { checkRatePolicy, type RateLimitPolicy } from './rate-limit/rate-limit.js'
import { maxDelayMs } from './faults/rule-check.js'
import type { LatencyRange } from './sessions/world.js'
import { checkSilences, type SpecSilences } from './spec/silences.js'

/**
 * The defaults of the app's options, the one place they are written: createApp
 * applies them, and the hosts (src/node/config/config.ts, src/msw/options.ts) start
 * from them. In a module of its own (with the checks) so that a host reads
 * them without loading the app.
 */
export const appDefaults = {
  bodyLimit: 1024 * 1024,
  maxPets: 100_000,
  maxSessions: 100,
  journalSize: 1000,
} as const

/**
 * The accepted ranges of the app's numeric options, with the server flag of
 * each (a test keeps src/node/cli/options.ts's flags equal to them).
 */
export const optionLimits = {
  maxPets: { flag: 'max-pets', min: 0, max: 100_000_000 },
  maxSessions: { flag: 'max-sessions', min: 1, max: 100_000 },
  journalSize: { flag: 'journal-size', min: 0, max: 1_000_000 },
  bodyLimit: { flag: 'body-limit', min: 1, max: 1024 ** 3 },
  seed: { flag: 'seed', min: 0, max: 2 ** 32 - 1 },
  count: { flag: 'count', min: 0, max: 10_000_000 },
  sessionTtl: { flag: 'session-ttl', min: 0, max: 31_536_000 },
  maxMemory: { flag: 'max-memory', min: 1, max: 1024 * 1024 },
} as const

/** An option that cannot be used; the message names the option (as the app's options name it) and the value. */
export class OptionError extends TypeError {
  override name = 'OptionError'
}

const fail = (message: string): never => {
  throw new OptionError(message)
}

/** Checks an integer option against {@link optionLimits}; `name` is how the caller names it. */
export const checkInteger = (name: string, value: unknown, limit: keyof typeof optionLimits): void => {
  if (value === undefined) return
  const { min, max } = optionLimits[limit]
  if (!Number.isSafeInteger(value) || (value as number) < min || (value as number) > max) {
    fail(`${name} must be an integer between ${min} and ${max} (got ${JSON.stringify(value)})`)
  }
}

/** The app's scalar options, as createApp takes them. */
export interface ScalarOptions {
  maxPets?: number
  maxSessions?: number
  journalSize?: number
  maxMemory?: number
  bodyLimit?: number
  seed?: number
  sessionTtl?: number
  apiKeys?: readonly string[]
  adminToken?: string
  redact?: readonly string[]
  delay?: LatencyRange
  rateLimit?: RateLimitPolicy
  silences?: Partial<SpecSilences>
}

/** What checking resolved: the spec-silence switches, each filled in with its default when not given. */
export interface CheckedAppOptions {
  silences: SpecSilences
}

/**
 * Every scalar option of the app checked, the one place they are: createApp
 * runs it, and the hosts translate their inputs (flags and environment, an
 * options object) to these options and its {@link OptionError} to theirs.
 * Cheap on purpose: pets, rules and snapshots are data, checked where they
 * are read (files, the msw options), not again at every start.
 */
export const checkAppOptions = (options: ScalarOptions): CheckedAppOptions => {
  checkInteger('maxPets', options.maxPets, 'maxPets')
  checkInteger('maxSessions', options.maxSessions, 'maxSessions')
  checkInteger('journalSize', options.journalSize, 'journalSize')
  checkInteger('bodyLimit', options.bodyLimit, 'bodyLimit')
  checkInteger('maxMemory', options.maxMemory, 'maxMemory')
  checkInteger('seed', options.seed, 'seed')
  checkInteger('sessionTtl', options.sessionTtl, 'sessionTtl')
  const keys: unknown = options.apiKeys
  if (keys !== undefined) {
    if (!Array.isArray(keys)) fail('apiKeys must be an array of strings')
    ;(keys as unknown[]).forEach((key, i) => {
      if (typeof key !== 'string' || key === '') fail(`apiKeys: entry ${i} must be a non-empty string`)
    })
  }
  const redact: unknown = options.redact
  if (redact !== undefined) {
    if (!Array.isArray(redact)) fail('redact must be an array of header or query parameter names')
    ;(redact as unknown[]).forEach((name, i) => {
      if (typeof name !== 'string' || name.trim() === '') fail(`redact: entry ${i} must be a non-empty name`)
    })
  }
  const token: unknown = options.adminToken
  // Blank is a mis-set secret (issue 40): never a token that a blank Authorization matches.
  if (token !== undefined && (typeof token !== 'string' || token.trim() === ''))
    fail('adminToken must be a non-empty string, not blank')
  const delay: unknown = options.delay
  if (delay !== undefined) {
    const { min, max } = (delay ?? {}) as Partial<LatencyRange>
    const ok = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0 && (n as number) <= maxDelayMs
    if (!ok(min) || !ok(max) || min! > max!) {
      fail(
        `delay must be { min, max } milliseconds from 0 to ${maxDelayMs} with min ≤ max (got ${JSON.stringify(delay)})`,
      )
    }
  }
  const badRate = options.rateLimit && checkRatePolicy(options.rateLimit)
  if (badRate) fail(badRate)
  const silences = checkSilences(options.silences)
  return { silences: typeof silences === 'string' ? fail(silences) : silences }
}
