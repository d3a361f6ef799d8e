import { ownCopy } from '../http/own-copy.js'

/** At most `limit` requests per `windowSeconds` for each API key. */
export interface RateLimitPolicy {
  limit: number
  windowSeconds: number
}

/** Where one request stands against the policy. */
export interface RateDecision {
  allowed: boolean
  policy: RateLimitPolicy
  /** Requests left in the window after this one (0 when refused). */
  remaining: number
  /** Whole seconds until the window frees (at least 1). */
  resetSeconds: number
}

/** Largest `n` of `n/window`. */
export const maxRateLimit = 1_000_000
/** Longest window: a day. */
export const maxWindowSeconds = 86_400
/** API keys tracked per session; beyond, the least recently seen one is forgotten. */
export const maxTrackedKeys = 1000

const UNITS = { s: 1, m: 60, h: 3600 } as const
const RATE = /^([1-9][0-9]*)\/([1-9][0-9]*)?([smh])$/

/** How a rate must be written, for messages. */
export const rateExpectation = `<n>/<window>: n from 1 to ${maxRateLimit}, the window s, m or h with an optional count (at most 24h), e.g. 100/m or 10/30s`

/** The policy of `100/m`, `10/30s`, `5000/h`, `1000/24h`; undefined when malformed or out of range. */
export const parseRate = (text: string): RateLimitPolicy | undefined => {
  const match = RATE.exec(text)
  if (!match) return undefined
  const limit = Number(match[1])
  const windowSeconds = Number(match[2] ?? 1) * UNITS[match[3] as keyof typeof UNITS]
  if (limit > maxRateLimit || windowSeconds > maxWindowSeconds) return undefined
  return { limit, windowSeconds }
}

/** The policy written as `100/m`, `10/30s`, `1000/24h`. */
export const formatRate = ({ limit, windowSeconds }: RateLimitPolicy): string => {
  const [unit, size] = windowSeconds % 3600 === 0 ? ['h', 3600] : windowSeconds % 60 === 0 ? ['m', 60] : ['s', 1]
  const count = windowSeconds / (size as number)
  return `${limit}/${count === 1 ? '' : count}${unit}`
}

/** A sentence naming what is wrong with a policy given to createApp, or undefined. */
export const checkRatePolicy = (policy: RateLimitPolicy): string | undefined => {
  const { limit, windowSeconds } = policy
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > maxRateLimit) {
    return `rateLimit.limit must be an integer from 1 to ${maxRateLimit} (got ${limit})`
  }
  if (!Number.isSafeInteger(windowSeconds) || windowSeconds < 1 || windowSeconds > maxWindowSeconds) {
    return `rateLimit.windowSeconds must be an integer from 1 to ${maxWindowSeconds} (got ${windowSeconds})`
  }
  return undefined
}

// 53-bit string hash (cyrb53): tokens longer than this are tracked by prefix and hash, so a key costs little memory.
const hash53 = (text: string): number => {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ ch, 2654435761)
    h2 = Math.imul(h2 ^ ch, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return 4294967296 * (2097151 & h2) + (h1 >>> 0)
}

const longToken = 64

/**
 * The partition a token's requests count against: the token itself, or for
 * long ones a prefix and a hash, copied (a view on the token would keep it whole).
 */
export const partitionKey = (token: string): string =>
  token.length <= longToken ? token : ownCopy(`${token.slice(0, 16)}…${hash53(token).toString(36)}:${token.length}`)

interface Window {
  start: number
  count: number
}

/**
 * Fixed windows per API key on the mock clock: a key's window opens with its
 * first request and lasts `windowSeconds`; the first request after that opens
 * the next one. A clock moved back before a window's start opens a new one.
 * Knows nothing of HTTP.
 */
export class RateLimiter {
  readonly policy: RateLimitPolicy | undefined
  readonly #windows = new Map<string, Window>()
  readonly #maxKeys: number

  constructor(policy?: RateLimitPolicy, maxKeys = maxTrackedKeys) {
    this.policy = policy
    this.#maxKeys = maxKeys
  }

  /** Keys tracked now. */
  get size(): number {
    return this.#windows.size
  }

  /** Counts a request of `key` at `now` (epoch ms) unless the window is used up. */
  take(key: string, now: number): RateDecision {
    const policy = this.policy
    if (!policy) throw new Error('no rate limit is set')
    const windowMs = policy.windowSeconds * 1000
    let window = this.#windows.get(key)
    // Map order is insertion order: re-inserting keeps the least recently seen key first.
    if (window) this.#windows.delete(key)
    if (!window || now >= window.start + windowMs || now < window.start) window = { start: now, count: 0 }
    this.#windows.set(key, window)
    if (this.#windows.size > this.#maxKeys) this.#windows.delete(this.#windows.keys().next().value!)
    const resetSeconds = Math.max(1, Math.ceil((window.start + windowMs - now) / 1000))
    if (window.count >= policy.limit) return { allowed: false, policy, remaining: 0, resetSeconds }
    window.count++
    return { allowed: true, policy, remaining: policy.limit - window.count, resetSeconds }
  }
}
