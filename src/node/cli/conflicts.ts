import type { Config } from '../config/config.js'

/** The options set on a command line, each by the flag or variable that set it (`--count`, `PETSTORE_MOCK_COUNT`). */
export type Given = ReadonlyMap<keyof Config, string>

/** One rule: the message when a Config's options contradict each other, undefined when they do not. */
type Conflict = (config: Config, given: Given) => string | undefined

// The names of the given options among `keys`, as they were given.
const named = (given: Given, keys: readonly (keyof Config)[]): string[] =>
  keys.flatMap((key) => (given.has(key) ? [given.get(key)!] : []))

// The options a snapshot replaces: it is a whole world (snapshot.ts).
const snapshotParts: readonly (keyof Config)[] = [
  'fixtures',
  'faker',
  'count',
  'data',
  'faults',
  'delay',
  'clock',
  'rateLimit',
]

/**
 * Pairs of options where one would silently undo or ignore the other, first match first; in
 * docs/reference/options.md. Each contradiction is one a start used to accept and then serve
 * something else than asked (faker pets and an unread --fixtures file, a --count nothing used).
 */
const conflicts: readonly Conflict[] = [
  (config, given) =>
    config.snapshot !== undefined && config.proxy !== undefined
      ? `${given.get('proxy')} records a deployment and ${given.get('snapshot')} replays a recording: choose one`
      : undefined,
  (config, given) => {
    const parts = config.snapshot === undefined ? [] : named(given, snapshotParts)
    return parts.length > 0
      ? `${given.get('snapshot')} sets the pets, fault rules, latency, clock and rate limit: drop ${parts.join(', ')}`
      : undefined
  },
  (config, given) =>
    config.faker && given.has('fixtures')
      ? `${given.get('faker')} and ${given.get('fixtures')} both seed the pets: choose one`
      : undefined,
  (config, given) =>
    !config.faker && given.has('count')
      ? `${given.get('count')} is how many pets --faker generates, and --faker is not set: add --faker, or drop ${given.get('count')}`
      : undefined,
  (config, given) =>
    !config.faker && given.has('data')
      ? `${given.get('data')} is which pets --faker generates, and --faker is not set: add --faker, or drop ${given.get('data')}`
      : undefined,
  (config, given) =>
    !config.cors && given.has('corsOrigins')
      ? `${given.get('corsOrigins')} lists origins for CORS, which ${given.get('cors')} turns off: drop one`
      : undefined,
  (config, given) => {
    const set = config.proxy === undefined ? named(given, ['proxyTimeout', 'proxyFlagViolations']) : []
    return set.length > 0
      ? `${set.join(' and ')} ${set.length > 1 ? 'set' : 'sets'} how --proxy forwards, and --proxy is not set: add --proxy URL, or drop ${set.length > 1 ? 'them' : 'it'}`
      : undefined
  },
  (config, given) =>
    config.store === 'memory' && given.has('storePrefix')
      ? `${given.get('storePrefix')} prefixes the keys of a Redis store, and the store is memory: add --store redis://…, or drop it`
      : undefined,
  (config, given) => {
    const set = config.store === 'memory' ? named(given, ['redisPasswordFile', 'redisCaFile']) : []
    return set.length > 0
      ? `${set.join(' and ')} ${set.length > 1 ? 'are' : 'is'} for a Redis store, and the store is memory: add --store redis://…, or drop ${set.length > 1 ? 'them' : 'it'}`
      : undefined
  },
  (config, given) =>
    config.redisPasswordFile !== undefined && new URL(config.store).password !== ''
      ? `${given.get('redisPasswordFile')} and the password in ${given.get('store') ?? '--store'} both give the Redis password: choose one`
      : undefined,
  (config, given) =>
    config.redisCaFile !== undefined && !config.store.startsWith('rediss:')
      ? `${given.get('redisCaFile')} is the CA of a TLS store, and ${given.get('store') ?? '--store'} is not TLS: write rediss://…, or drop it`
      : undefined,
  // Node refuses to start a server so configured, with a message that names neither option.
  (config, given) =>
    config.headersTimeout > config.requestTimeout
      ? `${given.get('headersTimeout') ?? '--headers-timeout'} (${config.headersTimeout} ms) exceeds ${given.get('requestTimeout') ?? '--request-timeout'} (${config.requestTimeout} ms): the headers are part of the request`
      : undefined,
]

/** The first contradiction among a Config's options (one line, no trailing period), or undefined. */
export const conflictOf = (config: Config, given: Given): string | undefined => {
  for (const conflict of conflicts) {
    const message = conflict(config, given)
    if (message !== undefined) return message
  }
  return undefined
}
