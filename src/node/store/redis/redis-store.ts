import { createHash } from 'node:crypto'
import { Redis, ReplyError } from 'ioredis'
import { ApiError } from '../../../core/http/errors.js'
import type { ReadAhead, SessionStore } from '../../../core/sessions/port.js'
import type { MaybePromise } from '../../../core/state/maybe-promise.js'
import type { BudgetReport } from '../../../core/budget/memory-budget.js'
import { defaultSessionName, type StartState } from '../../../core/sessions/memory-store.js'
import { encodeWorld } from './codec.js'
import { defineScripts, type RunScript } from './commands.js'
import { JournalEvents } from './journal-events.js'
import { parseSelection, RedisSession, type SessionContext } from './redis-session.js'

/** How the store reaches Redis. */
export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…` (TLS). */
  url: string
  /** Put before every key, so that several mocks share one Redis. */
  prefix: string
  /** Longest wait for Redis, ms: a command, a connection (default 2000). */
  timeoutMs?: number
}

/** The selecting script's arguments for a read named ahead (see sessionScript). */
const aheadArgs = (readAhead: ReadAhead | undefined): (string | number)[] => {
  if (readAhead === undefined) return []
  if ('getPet' in readAhead) return ['pet', readAhead.getPet]
  const { limit, status } = readAhead.listPets
  return limit > 0 ? ['list', status === undefined ? 'i' : `i:${status}`, limit] : []
}

/** The answer while Redis cannot be reached: 503, code `store_unavailable`. */
export const storeUnavailable = (): ApiError =>
  new ApiError(503, 'The state store (Redis) cannot be reached; retry later.', {
    code: 'store_unavailable',
    headers: { 'Retry-After': '1' },
  })

/** The answer when Redis refuses a write at its `maxmemory` (noeviction): 507, nothing was changed. */
export const storeFull = (): ApiError =>
  new ApiError(
    507,
    'The state store (Redis) is full (its maxmemory): nothing was changed. To free it, reset sessions ' +
      '(POST /__admin/reset) or delete them (DELETE /__admin/sessions/{name}); or give Redis a larger maxmemory.',
  )

// A script's own error is a bug (500); Redis at its maxmemory refuses (507); anything else (closed, timed
// out, not connected) is Redis away.
const failed = (error: unknown): never => {
  if (error instanceof ReplyError && String((error as Error).message).startsWith('OOM')) throw storeFull()
  if (
    error instanceof ReplyError &&
    !/^(LOADING|BUSY|READONLY|MASTERDOWN|TRYAGAIN)/.test(String((error as Error).message))
  )
    throw error
  throw storeUnavailable()
}

/**
 * ioredis, set to fail fast rather than queue: a command while Redis is away
 * is refused at once (no offline queue), one sent is given up after the
 * timeout, and the connection is retried in the background every second at
 * most, so that the replica recovers by itself.
 */
export const connectRedis = (url: string, timeoutMs = 2000): Redis =>
  new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: timeoutMs,
    connectTimeout: timeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
    // No auto-pipelining: the scripts' calls are batched per turn already (commands.ts), and
    // ioredis's own batching would hold each batch one more turn of the event loop.
    enableAutoPipelining: false,
  })

/**
 * The session registry in Redis (issue 22): every session's state, shared by
 * every replica started with the same store and prefix. Each method is one
 * command or one Lua script (atomic); journal entries reach every replica's
 * event streams by pub/sub. Sessions start from a template written once per
 * distinct start state (`<prefix>:t:<sha1>:`), copied server-side.
 */
export class RedisSessionStore implements SessionStore {
  readonly #client: Redis
  readonly #run: RunScript
  readonly #ctx: SessionContext
  readonly #prefix: string
  readonly #maxSessions: number
  readonly #events: JournalEvents
  readonly #world: string
  /** Set once the template and the default session are in Redis. */
  #initialised = false
  #initialising: Promise<void> | undefined
  /** Resolves once the template and the default session are in Redis (a failed start is tried again by the next call). */
  readonly ready: Promise<void>

  constructor(client: Redis, prefix: string, start: StartState, maxSessions: number) {
    this.#client = client
    this.#prefix = prefix
    this.#maxSessions = maxSessions
    this.#run = defineScripts(client)
    this.#events = new JournalEvents(client)
    const world = encodeWorld(start.world, start.clock ?? { mode: 'real' }, start.rateLimit)
    const template = `${prefix}:t:${createHash('sha1').update(world).digest('hex')}:`
    this.#ctx = {
      run: this.#run,
      client,
      prefix,
      template,
      start,
      failed,
      subscribe: (channel, base, listener) => this.#events.subscribe(channel, base, listener),
      endSubscriptions: (channel) => this.#events.end(channel),
    }
    this.#world = world
    this.ready = this.#init()
    // Whoever awaits `ready` hears of a failure; nobody else must (an unhandled rejection).
    this.ready.catch(() => undefined)
  }

  #init(): Promise<void> {
    this.#initialising ??= this.#run('psInit', this.#prefix, this.#ctx.template, this.#world).then(
      () => {
        this.#initialised = true
        this.#initialising = undefined
      },
      (error: unknown) => {
        this.#initialising = undefined
        return failed(error)
      },
    )
    return this.#initialising
  }

  /** `use` once the store's start is in Redis (at once on every call but the first ones). */
  #initialisedThen<T>(use: () => Promise<T>): Promise<T> {
    return this.#initialised ? use() : this.#init().then(use)
  }

  session(name: string = defaultSessionName, readAhead?: ReadAhead): MaybePromise<RedisSession> {
    if (!this.#initialised) return this.#init().then(() => this.session(name, readAhead))
    return this.#run(
      'psSession',
      this.#prefix,
      name,
      this.#ctx.template,
      this.#maxSessions,
      ...aheadArgs(readAhead),
    ).then((reply) => {
      const { meta, ahead } = parseSelection(reply as string)
      return new RedisSession(this.#ctx, name, meta, readAhead && { read: readAhead, reply: ahead })
    }, failed)
  }

  sessions(): Promise<RedisSession[]> {
    return this.#initialisedThen(() =>
      this.#client
        .zrange(`${this.#prefix}:reg`, 0, '-1')
        .then((names) => names.map((name) => new RedisSession(this.#ctx, name)), failed),
    )
  }

  dropSession(name: string): Promise<boolean> {
    return this.#initialisedThen(() => this.#run('psDrop', this.#prefix, name).then((dropped) => dropped === 1, failed))
  }

  stats(): Promise<{ pets: number; sessions: number }> {
    return this.#initialisedThen(() =>
      this.#run('psStats', this.#prefix).then((reply) => {
        const [pets, sessions] = (reply as number[]).map(Number) as [number, number]
        return { pets, sessions }
      }, failed),
    )
  }

  /**
   * The budget's state share as every replica of the prefix charges it in Redis (pets, rules,
   * sessions; the scripts enforce it). The journal lives in Redis, bounded per session by
   * --journal-size and each entry's cuts, not by the journal share: its figures are null and 0.
   */
  memory(): Promise<BudgetReport> {
    const budget = this.#ctx.start.budget
    const finite = (bytes: number | undefined): number | null =>
      bytes !== undefined && Number.isFinite(bytes) ? bytes : null
    return this.#initialisedThen(() =>
      this.#run('psMemory', this.#prefix).then((reply) => {
        const [pets, rules, sessions] = (reply as string[]).map(Number) as [number, number, number]
        const used = pets + rules + sessions
        return {
          budgetBytes: finite(budget?.budgetBytes),
          usedBytes: used,
          state: {
            shareBytes: finite(budget?.stateShareBytes),
            usedBytes: used,
            parts: { pets, rules, sessions, streams: 0, deprecations: 0, rateLimits: 0 },
          },
          journal: { shareBytes: null, usedBytes: 0, entries: 0 },
        }
      }, failed),
    )
  }

  close(): void {
    this.#events.close()
    this.#client.disconnect()
  }
}

/** Connects to Redis and makes the store; rejects when Redis cannot be reached at start-up. */
export const openRedisStore = async (
  options: RedisStoreOptions,
): Promise<(start: StartState, maxSessions: number) => RedisSessionStore> => {
  const client = connectRedis(options.url, options.timeoutMs)
  // Errors are answered per request (503) and by health; without a listener ioredis would print each.
  let cause: unknown
  client.on('error', (error) => (cause = error))
  try {
    await client.connect()
  } catch (error) {
    // ioredis would go on retrying in the background: a start that fails stops it.
    client.disconnect()
    throw cause ?? error
  }
  cause = undefined
  return (start, maxSessions) => new RedisSessionStore(client, options.prefix, start, maxSessions)
}
