import { createHash } from 'node:crypto'
import { Redis, ReplyError } from 'ioredis'
import { ApiError } from '../../../core/http/errors.js'
import type { ReadAhead, SessionState, SessionStore, StoreWrites } from '../../../core/sessions/port.js'
import type { MaybePromise } from '../../../core/async/maybe-promise.js'
import type { BudgetReport, TenantUse } from '../../../core/budget/memory-budget.js'
import { defaultSessionName, type StartState } from '../../../core/sessions/memory-store.js'
import { encodeWorld } from './codec.js'
import { defineScripts, type RunScript } from './commands.js'
import { JournalEvents } from './journal-events.js'
import { type FleetOptions, joinFleet } from './fleet-fingerprint.js'
import { parseSelection, RedisSession, type SessionContext } from './redis-session.js'
import { countStoreError } from '../errors/store-errors.js'
import { refusedForMemory } from './store-full.js'
import type { RedisMaxmemory } from '../../memory/redis-clamp.js'
import {
  defaultSessionTtlSeconds,
  type Selection,
  type SelectMode,
  type SessionOutcome,
  sessionOf,
} from '../../../core/sessions/lifecycle.js'
import type { Tombstone } from '../../../core/sessions/tombstones.js'
import { KnownInteractions } from './known-interactions.js'
import { CoverageBatch } from './coverage-batch.js'
import { DeprecationBatch } from './deprecation-batch.js'
import { sendRecords, sendSelections, TurnGroups } from './turn-groups.js'
import { type RedisPool, RedisPools } from './tenant-pools.js'

/** A tombstone as the scripts write it: `at,reason,ttl seconds`. */
const parseTombstone = (name: string, text: string): Tombstone => {
  const [at, , ttl] = text.split(',')
  return { name, at: Number(at), reason: 'idle', ttlSeconds: Number(ttl) }
}

/** How the store reaches Redis. */
export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…` (TLS). */
  url: string
  /** Put before every key, so that several mocks share one Redis. */
  prefix: string
  /** Longest wait for Redis, ms: a command, a connection (default 2000). */
  timeoutMs?: number
  /** What shapes data, checked against the fleet's (fleet-fingerprint.ts); none: not checked. */
  fleet?: { options: FleetOptions; reconfigure: boolean }
  /** Credentials and TLS trust given beside the URL (files read by open-store.ts). */
  access?: RedisAccess
}

/** What a connection proves itself with, beside the URL: a password (the URL's user, or default), CAs to trust (rediss://). */
export interface RedisAccess {
  password?: string
  /** PEM text of the CA(s) that sign Redis's certificate. */
  ca?: string
}

/** The selecting script's arguments for a read named ahead (see psSession in scripts/sessions.lua). */
const aheadArgs = (readAhead: ReadAhead | undefined): (string | number)[] => {
  if (readAhead === undefined) return []
  if ('getPet' in readAhead) return ['pet', readAhead.getPet]
  const { limit, status } = readAhead.listPets
  return limit > 0 ? ['list', status === undefined ? 'i' : `i:${status}`, limit] : []
}

/** One pool's figures as psMemory answers them from `at` (scripts/budget.lua): bytes by part, then journal entries. */
const poolUse = (figures: readonly number[], at: number) => {
  const [pets = 0, rules = 0, sessions = 0, deprecations = 0, rateLimits = 0, journal = 0, entries = 0] = figures.slice(
    at,
    at + 7,
  )
  return { pets, rules, sessions, deprecations, rateLimits, journal, entries }
}

/** The answer while Redis cannot be reached: 503, code `store_unavailable`. */
export const storeUnavailable = (): ApiError =>
  new ApiError(503, 'The state store (Redis) cannot be reached; retry later.', {
    code: 'store_unavailable',
    headers: { 'Retry-After': '1' },
  })

const timedOut = (error: unknown): boolean => /timed out/i.test(String((error as Error)?.message))

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
  countStoreError(error instanceof ReplyError ? 'refused' : timedOut(error) ? 'timeout' : 'unreachable')
  if (refusedForMemory(error)) throw storeFull()
  if (
    error instanceof ReplyError &&
    !/^(LOADING|BUSY|READONLY|MASTERDOWN|TRYAGAIN)/.test(String((error as Error).message))
  )
    throw error
  throw storeUnavailable()
}

// With a password from a file, the URL's user is given as an option: ioredis takes a URL's user with
// its empty password over any option.
const withoutCredentials = (url: string, access: RedisAccess): string => {
  if (access.password === undefined) return url
  const target = new URL(url)
  target.username = ''
  target.password = ''
  return target.toString()
}

const credentials = (url: string, access: RedisAccess): { username?: string; password?: string } => {
  if (access.password === undefined) return {}
  const username = decodeURIComponent(new URL(url).username)
  return { ...(username !== '' && { username }), password: access.password }
}

/**
 * ioredis, set to fail fast rather than queue: a command while Redis is away
 * is refused at once (no offline queue), one sent is given up after the
 * timeout, and the connection is retried in the background every second at
 * most, so that the replica recovers by itself.
 */
export const connectRedis = (url: string, timeoutMs = 2000, access: RedisAccess = {}): Redis =>
  new Redis(withoutCredentials(url, access), {
    // ioredis's own AUTH/HELLO and TLS: the file's password for the URL's user (cli/conflicts.ts
    // refuses a password in both); rediss:// adds TLS, trusting these CAs besides Node's.
    ...credentials(url, access),
    ...(access.ca !== undefined && { tls: { ca: access.ca } }),
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
  readonly #pools: RedisPools
  readonly #events: JournalEvents
  readonly #world: string
  /** Idle time after which a session is dropped, ms (0: never). */
  readonly #ttlMs: number
  readonly #onDrop: ((tombstone: Tombstone) => void) | undefined
  /** Set once the template and the default session are in Redis. */
  #initialised = false
  #initialising: Promise<void> | undefined
  /** Resolves once the template and the default session are in Redis (a failed start is tried again by the next call). */
  readonly ready: Promise<void>
  /** The sessions this replica's selections made, with their marks (psSession): what discardMade may drop. */
  readonly #made = new WeakMap<object, string>()
  /** The selections of a turn, one call per session (turn-groups.ts). */
  readonly #selections: TurnGroups

  constructor(client: Redis, prefix: string, start: StartState, maxSessions: number) {
    this.#client = client
    this.#prefix = prefix
    this.#pools = new RedisPools(prefix, maxSessions, start.budget, start.tenancy)
    this.#run = defineScripts(client)
    this.#selections = new TurnGroups(this.#run, sendSelections)
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
      coverage: new CoverageBatch(this.#run, new KnownInteractions()),
      deprecations: new DeprecationBatch(this.#run),
      records: new TurnGroups(this.#run, sendRecords),
      pools: this.#pools,
    }
    this.#world = world
    this.#ttlMs = start.sessions?.ttlMs ?? defaultSessionTtlSeconds * 1000
    this.#onDrop = start.sessions?.onDrop
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
    return this.select(name, 'use', readAhead).then((selection) => sessionOf(selection))
  }

  select(
    name: string = defaultSessionName,
    mode: SelectMode = 'use',
    readAhead?: ReadAhead,
  ): Promise<Selection<RedisSession>> {
    if (!this.#initialised) return this.#init().then(() => this.select(name, mode, readAhead))
    // The pool a new session would be counted in (one Map lookup: tenant-pools.ts).
    const pool = this.#pools.ofSession(name)
    const common = [
      this.#prefix,
      name,
      this.#ctx.template,
      pool.maxSessions,
      this.#ttlMs,
      mode,
      pool.tenant?.name ?? '',
    ]
    return this.#selections.add(common, aheadArgs(readAhead)).then((reply) => {
      const text = reply as string
      const mark = text.charCodeAt(0)
      if (mark === 1) return this.#outcome(name, text, pool)
      // A made session's answer: \2, its mark (psDiscard), \2, then as a found one's.
      const made = mark === 2 ? text.indexOf('\u0002', 1) : -1
      const { meta, ahead } = parseSelection(made === -1 ? text : text.slice(made + 1))
      const session = new RedisSession(this.#ctx, name, meta, readAhead && { read: readAhead, reply: ahead })
      if (made === -1) return session
      this.#made.set(session, text.slice(1, made))
      return { outcome: 'created' as const, session }
    }, failed)
  }

  /** A selecting script's answer when there is no session to use (see psSession in scripts/sessions.lua). */
  #outcome(name: string, text: string, pool: RedisPool): SessionOutcome<RedisSession> {
    const [, kind, detail, droppedNow] = text.split('\u0001')
    if (kind === 'full') return { outcome: 'full', sessions: Number(detail), max: pool.maxSessions }
    if (kind === 'quota') {
      return { outcome: 'full', sessions: Number(detail), max: pool.maxSessions, tenant: pool.tenant!.name }
    }
    if (kind === 'unknown') return { outcome: 'unknown', name }
    const tombstone = parseTombstone(name, detail!)
    if (droppedNow === '1') this.#onDrop?.(tombstone)
    return { outcome: 'expired', tombstone }
  }

  /** Sweeps the sessions idle past the TTL (logging each drop), then `use`. */
  #swept<T>(use: () => Promise<T>): Promise<T> {
    if (this.#ttlMs === 0) return use()
    return this.#run('psSweep', this.#prefix, this.#ttlMs).then((names) => {
      this.#dropped(names as string[])
      return use()
    }, failed)
  }

  /** Logs the drops of a sweep (their tombstones as written: now, by Redis' clock). */
  #dropped(names: readonly string[]): void {
    for (const name of names) {
      this.#onDrop?.({ name, at: Date.now(), reason: 'idle', ttlSeconds: this.#ttlMs / 1000 })
    }
  }

  sessions(): Promise<RedisSession[]> {
    return this.#initialisedThen(() =>
      this.#swept(() =>
        this.#client
          .zrange(`${this.#prefix}:reg`, 0, '-1')
          .then((names) => names.map((name) => new RedisSession(this.#ctx, name)), failed),
      ),
    )
  }

  tombstones(): Promise<Tombstone[]> {
    return this.#initialisedThen(() =>
      this.#swept(() =>
        this.#run('psTombstones', this.#prefix).then((reply) => {
          const flat = reply as string[]
          const stones: Tombstone[] = []
          for (let i = 0; i + 1 < flat.length; i += 2) stones.push(parseTombstone(flat[i]!, flat[i + 1]!))
          return stones
        }, failed),
      ),
    )
  }

  dropSession(name: string): Promise<boolean> {
    return this.#initialisedThen(() => this.#run('psDrop', this.#prefix, name).then((dropped) => dropped === 1, failed))
  }

  discardMade(session: SessionState): Promise<boolean> {
    const mark = this.#made.get(session)
    if (mark === undefined) return Promise.resolve(false)
    this.#made.delete(session)
    return this.#run('psDiscard', this.#prefix, session.name, mark).then((dropped) => dropped === 1, failed)
  }

  stats(): Promise<{ pets: number; sessions: number; dropped: number }> {
    return this.#initialisedThen(() =>
      this.#run('psStats', this.#prefix, this.#ttlMs).then((reply) => {
        const [pets, sessions, dropped, names] = reply as [number, number, number, string[]]
        this.#dropped(names)
        return { pets: Number(pets), sessions: Number(sessions), dropped: Number(dropped) }
      }, failed),
    )
  }

  /**
   * Whether Redis takes this replica's writes now: one SET of a key of the prefix that expires in a
   * minute. An error reply (OOM, READONLY, MISCONF, NOREPLICAS…) is a refusal, told as a sentence
   * (`full`: the OOM of its maxmemory); no answer or no connection is {@link storeUnavailable}.
   */
  #probeWrites(): Promise<StoreWrites & { full?: boolean }> {
    return this.#client.set(`${this.#prefix}:ready`, String(Date.now()), 'PX', 60_000).then(
      () => ({ writable: true }),
      (error: unknown) => {
        if (!(error instanceof ReplyError)) return failed(error)
        countStoreError('refused')
        const reply = String((error as Error).message)
          .split('\n')[0]!
          .slice(0, 200)
        const reason = `The state store (Redis) refuses writes: ${reply}`
        return { writable: false, reason, full: refusedForMemory(error) }
      },
    )
  }

  /** Whether Redis takes this replica's writes now (health's `store`, the metrics). */
  writes(): Promise<StoreWrites> {
    return this.#probeWrites().then(({ writable, reason }) =>
      reason === undefined ? { writable } : { writable, reason },
    )
  }

  /**
   * Why this replica cannot serve now (the readiness probe), or undefined when it can. A Redis at
   * its maxmemory still serves reads, deletes and resets, and answers writes 507 (issue 41): ready,
   * so that the Service keeps its endpoints and the 507's advice stays reachable. Any other
   * refusal (READONLY, MISCONF, NOREPLICAS…) is a sentence; Redis away, {@link storeUnavailable}.
   */
  refusesWrites(): Promise<string | undefined> {
    return this.#probeWrites().then(({ reason, full }) => (full ? undefined : reason))
  }

  /**
   * The budget as every replica of the prefix charges it in Redis (the scripts enforce it): pets,
   * rules, sessions, deprecation and rate-limit records, and the journal's share; event-stream
   * backlogs are this replica's own (in its process, charged to its own budget). With tenants,
   * `state` and `journal` are the sessions of no tenant's shares, and each tenant's use is told
   * against its quotas, fleet-wide.
   */
  memory(): Promise<BudgetReport> {
    const budget = this.#ctx.start.budget
    const pools = this.#pools
    const finite = (bytes: number | undefined): number | null =>
      bytes !== undefined && Number.isFinite(bytes) ? bytes : null
    const limit = (bytes: number): number | null => (bytes < 0 ? null : bytes)
    const names = pools.tenants.map((tenant) => tenant.name)
    return this.#initialisedThen(() =>
      this.#run('psMemory', this.#prefix, ...names).then((reply) => {
        const figures = (reply as string[]).map(Number)
        const { pets, rules, sessions, deprecations, rateLimits, journal, entries } = poolUse(figures, 0)
        const streams = budget?.held('streams') ?? 0
        const used = pets + rules + sessions + deprecations + rateLimits + streams
        const shared = pools.tenants.length > 0
        const stateShare = shared ? limit(pools.unowned.stateLimit) : finite(budget?.stateShareBytes)
        const ratios: number[] = stateShare === null ? [] : [stateShare > 0 ? used / stateShare : used > 0 ? 1 : 0]
        let usedBytes = used + journal
        const tenants: TenantUse[] = pools.tenants.map((tenant, i) => {
          // Per tenant: the seven figures of a pool, then its number of sessions (scripts/budget.lua psMemory).
          const at = 7 + i * 8
          const use = poolUse(figures, at)
          const count = figures[at + 7] ?? 0
          const pool = pools.named(tenant.name)
          const state = use.pets + use.rules + use.sessions + use.deprecations + use.rateLimits
          usedBytes += state + use.journal
          ratios.push(pool.stateLimit > 0 ? state / pool.stateLimit : state > 0 ? 1 : 0)
          return {
            tenant: tenant.name,
            sessions: { used: count, limit: pool.maxSessions },
            memory: { usedBytes: state, limitBytes: pool.stateLimit },
            journal: { usedBytes: use.journal, limitBytes: pool.journalLimit, entries: use.entries },
          }
        })
        return {
          budgetBytes: finite(budget?.budgetBytes),
          usedBytes,
          usedRatio: ratios.length === 0 ? null : Math.max(...ratios),
          state: {
            shareBytes: stateShare,
            usedBytes: used,
            parts: { pets, rules, sessions, streams, deprecations, rateLimits },
          },
          journal: {
            shareBytes: shared ? limit(pools.unowned.journalLimit) : finite(budget?.journalShareBytes),
            usedBytes: journal,
            entries,
          },
          ...(shared && { tenants }),
        }
      }, failed),
    )
  }

  close(): void {
    this.#events.close()
    this.#client.disconnect()
  }

  /** Ends every event stream (and journal wait) of this replica; the store goes on serving (a drain: main.ts). */
  endStreams(): void {
    this.#events.close()
  }

  /**
   * Closes the connection once Redis has everything this replica owes it: the calls of the turn
   * not sent yet and what their replies send again (coverage-batch.ts) leave, every reply comes
   * back (bounded: a few command timeouts), then QUIT, which Redis answers after the replies before
   * it. A connection that is not up is dropped.
   */
  async quit(): Promise<void> {
    this.#events.close()
    const deadline = Date.now() + 3 * quitTimeoutMs
    while (this.#run.pending() > 0 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 10))
    if (this.#client.status !== 'ready') return this.#client.disconnect()
    const timer = setTimeout(() => this.#client.disconnect(), quitTimeoutMs)
    await this.#client.quit().catch(() => undefined)
    clearTimeout(timer)
  }
}

/**
 * Redis' `maxmemory` (issue 41 §2: the budget is clamped to what it holds), or why it cannot be read:
 * `CONFIG` renamed away or not allowed to the user (as managed Redis does), or any other failure.
 */
const readMaxmemory = (client: Redis): Promise<RedisMaxmemory> =>
  client.config('GET', 'maxmemory').then(
    (reply) => {
      const bytes = Number((reply as string[])[1])
      return Number.isFinite(bytes) ? { bytes } : { refused: `unexpected answer ${JSON.stringify(reply)}` }
    },
    (error: unknown) => ({
      refused: String((error as Error).message)
        .split('\n')[0]!
        .slice(0, 200),
    }),
  )

/** Longest wait for Redis's answer to QUIT (the default command timeout). */
const quitTimeoutMs = 2000

/** Connects to Redis and makes the store; rejects when Redis cannot be reached at start-up. */
export const openRedisStore = async (
  options: RedisStoreOptions,
): Promise<
  ((start: StartState, maxSessions: number) => RedisSessionStore) & {
    maxmemory: RedisMaxmemory
    close(): void
    fleetNotes?: readonly string[]
  }
> => {
  const client = connectRedis(options.url, options.timeoutMs, options.access)
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
  let fleetNotes: string[] = []
  if (options.fleet) {
    try {
      fleetNotes = await joinFleet(client, options.prefix, options.fleet.options, options.fleet.reconfigure)
    } catch (error) {
      client.disconnect()
      throw error
    }
  }
  const maxmemory = await readMaxmemory(client)
  return Object.assign(
    (start: StartState, maxSessions: number) => new RedisSessionStore(client, options.prefix, start, maxSessions),
    { maxmemory, close: () => client.disconnect(), fleetNotes },
  )
}
