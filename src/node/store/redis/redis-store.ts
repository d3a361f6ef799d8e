import { createHash } from 'node:crypto'
import { Redis, ReplyError } from 'ioredis'
import { ApiError } from '../../../core/http/errors.js'
import type { JournalListener, JournalRecord } from '../../../core/journal/journal.js'
import type { MaybePromise, SessionStore } from '../../../core/state/port.js'
import { defaultSessionName, type StartState } from '../../../core/state/sessions.js'
import { encodeWorld } from './codec.js'
import { defineScripts, type RunScript } from './commands.js'
import { parseMeta, RedisSession, type SessionContext } from './redis-session.js'

/** How the store reaches Redis. */
export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…` (TLS). */
  url: string
  /** Put before every key, so that several mocks share one Redis. */
  prefix: string
  /** Longest wait for Redis, ms: a command, a connection (default 2000). */
  timeoutMs?: number
}

/** The answer while Redis cannot be reached: 503, code `store_unavailable`. */
export const storeUnavailable = (): ApiError =>
  new ApiError(503, 'The state store (Redis) cannot be reached; retry later.', {
    code: 'store_unavailable',
    headers: { 'Retry-After': '1' },
  })

// A script's own error is a bug (500); anything else (closed, timed out, not connected) is Redis away.
const failed = (error: unknown): never => {
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
    // Commands of concurrent requests issued in the same tick leave in one write.
    enableAutoPipelining: true,
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
  readonly #listeners = new Map<string, Set<JournalListener>>()
  #subscriber: Redis | undefined
  #ready: Promise<void> | undefined
  /** Resolves once the template and the default session are in Redis. */
  readonly ready: Promise<void>

  constructor(client: Redis, prefix: string, start: StartState, maxSessions: number) {
    this.#client = client
    this.#prefix = prefix
    this.#maxSessions = maxSessions
    this.#run = defineScripts(client)
    const world = encodeWorld(start.world, start.clock ?? { mode: 'real' }, start.rateLimit)
    const template = `${prefix}:t:${createHash('sha1').update(world).digest('hex')}:`
    this.#ctx = {
      run: this.#run,
      client,
      prefix,
      template,
      start,
      failed,
      subscribe: (channel, listener) => this.#subscribe(channel, listener),
      endSubscriptions: (channel) => this.#end(channel),
    }
    this.ready = this.#run('psInit', prefix, template, world).then(() => void (this.#ready = undefined), failed)
    this.#ready = this.ready
  }

  session(name: string = defaultSessionName): MaybePromise<RedisSession> {
    if (this.#ready) return this.#ready.then(() => this.session(name))
    return this.#run('psSession', this.#prefix, name, this.#ctx.template, this.#maxSessions).then(
      (meta) => new RedisSession(this.#ctx, name, parseMeta(meta)),
      failed,
    )
  }

  sessions(): Promise<RedisSession[]> {
    return this.#client
      .zrange(`${this.#prefix}:reg`, 0, '-1')
      .then((names) => names.map((name) => new RedisSession(this.#ctx, name)), failed)
  }

  dropSession(name: string): Promise<boolean> {
    return this.#run('psDrop', this.#prefix, name).then((dropped) => dropped === 1, failed)
  }

  stats(): Promise<{ pets: number; sessions: number }> {
    return this.#run('psStats', this.#prefix).then((reply) => {
      const [pets, sessions] = (reply as number[]).map(Number) as [number, number]
      return { pets, sessions }
    }, failed)
  }

  /** Whether Redis answers now (health). */
  ping(): Promise<boolean> {
    if (this.#client.status !== 'ready') return Promise.resolve(false)
    return this.#client.ping().then(
      () => true,
      () => false,
    )
  }

  close(): void {
    for (const channel of [...this.#listeners.keys()]) this.#end(channel)
    this.#subscriber?.disconnect()
    this.#client.disconnect()
  }

  #subscribe(channel: string, listener: JournalListener): () => void {
    let listeners = this.#listeners.get(channel)
    if (!listeners) {
      this.#listeners.set(channel, (listeners = new Set()))
      this.#events()
        .subscribe(channel)
        .catch(() => this.#end(channel))
    }
    listeners.add(listener)
    return () => {
      const current = this.#listeners.get(channel)
      if (!current?.delete(listener) || current.size > 0) return
      this.#listeners.delete(channel)
      this.#subscriber?.unsubscribe(channel).catch(() => undefined)
    }
  }

  #end(channel: string): void {
    const listeners = this.#listeners.get(channel)
    if (!listeners) return
    this.#listeners.delete(channel)
    this.#subscriber?.unsubscribe(channel).catch(() => undefined)
    for (const listener of listeners) listener.end()
  }

  // One connection per replica for every event stream; ioredis subscribes again after a reconnect.
  #events(): Redis {
    if (this.#subscriber) return this.#subscriber
    const subscriber = this.#client.duplicate({ enableOfflineQueue: true, lazyConnect: false })
    subscriber.on('error', () => undefined)
    subscriber.on('message', (channel: string, text: string) => {
      if (text === '') return this.#end(channel)
      const listeners = this.#listeners.get(channel)
      if (!listeners) return
      const record = JSON.parse(text) as JournalRecord
      for (const listener of listeners) listener.record(record)
    })
    return (this.#subscriber = subscriber)
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
