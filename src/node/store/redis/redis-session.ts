import type { Redis } from 'ioredis'
import type { DeprecationClient, DeprecationReport, FirstCall } from '../../../core/deprecation/deprecation-log.js'
import { maxUserAgentChars } from '../../../core/deprecation/deprecation-log.js'
import {
  type FaultRule,
  type FaultRuleInput,
  type FaultsFull,
  type FaultTarget,
  maxFaultRules,
  type PutFaultResult,
} from '../../../core/faults/rule-check.js'
import { maxTrackedKeys, type RateDecision, type RateLimitPolicy } from '../../../core/rate-limit/rate-limit.js'
import {
  filters,
  type JournalListener,
  type JournalQuery,
  type JournalRecord,
  matchesQuery,
} from '../../../core/journal/journal.js'
import type { NewPet, Pet, PetStatus } from '../../../core/spec/pet.js'
import type { DeprecationHeard } from '../../../core/deprecation/deprecation-slice.js'
import type { RateLimitState } from '../../../core/rate-limit/rate-limit-slice.js'
import type { ReadAhead, SessionContents, SessionState, SessionSummary } from '../../../core/sessions/port.js'
import type { StartState } from '../../../core/sessions/memory-store.js'
import type { MaybePromise } from '../../../core/async/maybe-promise.js'
import type { CreateRefusal } from '../../../core/pets/pet-store.js'
import type { LatencyRange, World } from '../../../core/sessions/world.js'
import { type ClockSetting, type ClockView, MockClock } from '../../../core/time/clock.js'
import {
  afterId,
  decodeClock,
  decodeEntry,
  decodeLatency,
  decodePolicy,
  decodeRandom,
  encodeClock,
  encodeEntry,
  encodePolicy,
  encodeWorld,
  parsePage,
  parsePet,
  parsePets,
  parseRule,
  petFields,
  refusalOf,
  ruleMatch,
} from './codec.js'
import type { CoverageCounts } from '../../../core/coverage/coverage-slice.js'
import { type InteractionNote, type KeptInteractions, maxInteractions } from '../../../core/coverage/pact-seed.js'
import type { Reply, RunScript, ScriptArg } from './commands.js'
import { petBytes, petsBytes, rateLimitKeyBytes, rulesCost } from '../../../core/budget/costs.js'
import { recordBytes } from '../../../core/journal/journal.js'
import { randomUUID } from 'node:crypto'
import type { StorageRefusal } from '../../../core/budget/storage-refusal.js'
import { deprecationReport } from './deprecation-report.js'
import type { CoverageBatch } from './coverage-batch.js'
import type { DeprecationBatch } from './deprecation-batch.js'
import type { TurnGroups } from './turn-groups.js'
import type { RedisPool, RedisPools } from './tenant-pools.js'
import { refusedForMemory } from './store-full.js'
import { countJournalStoreFullDrop } from '../errors/store-errors.js'

/** What a request reads of its session up front, in the same script that selects it. */
export interface SessionMeta {
  latency: LatencyRange | null
  rateLimit: RateLimitPolicy | undefined
  clock: ClockSetting
  faults: number
  /** The tenant whose pool the session is in ('' for none: tenant-pools.ts). */
  tenant: string
}

/** The meta as metaOf writes it: lmin, lmax, rl, cm, cv, number of rules, tenant, '|' between, '' for none. */
export const parseMeta = (text: string): SessionMeta => {
  const [lmin, lmax, rl, cm, cv, faults, tenant] = text.split('|').map((part) => (part === '' ? null : part))
  return {
    latency: decodeLatency(lmin, lmax),
    rateLimit: decodePolicy(rl),
    clock: decodeClock(cm, cv),
    faults: Number(faults),
    tenant: tenant ?? '',
  }
}

/** A selecting script's answer: the meta, and after a NUL the read named ahead ('' for no pet). */
export const parseSelection = (reply: string): { meta: SessionMeta; ahead: Reply } => {
  const at = reply.indexOf('\0')
  if (at === -1) return { meta: parseMeta(reply), ahead: null }
  const ahead = reply.slice(at + 1)
  return { meta: parseMeta(reply.slice(0, at)), ahead: ahead === '' ? null : ahead }
}

/** A read named with the selection (port.ts ReadAhead), and what the selecting script answered for it. */
export interface AheadRead {
  read: ReadAhead
  reply: Reply
}

/** Most pets written by one script run: a larger write goes in slices (scripts/staged.lua). */
export const stageSlice = 2000

/** How long staged pets outlive a replica that stopped half way through writing them, ms. */
const stagedTtlMs = 10 * 60_000

/** Pets from..to as the scripts take them: id, status or '', JSON. */
const petArgs = (pets: readonly Pet[], from: number, to: number): string[] => {
  const args: string[] = []
  for (let i = from; i < Math.min(to, pets.length); i++) {
    const pet = pets[i]!
    args.push(String(pet.id), pet.status ?? '', JSON.stringify(pet))
  }
  return args
}

// What cleaning up after a failure may meet (Redis still away): the failure itself is what is reported.
const ignore = (): void => undefined

/** What a session needs of its store: Redis, the key layout, the start, the replica's event subscriptions. */
export interface SessionContext {
  run: RunScript
  /** ioredis, for the plain reads that need no script. */
  client: Redis
  prefix: string
  template: string
  start: StartState
  /** Turns a rejected call into the store's error (503 when Redis cannot be reached). */
  failed: (error: unknown) => never
  subscribe(channel: string, base: string, listener: JournalListener): () => void
  endSubscriptions(channel: string): void
  /** Coverage counted over a turn, sent with the turn's batch (coverage-batch.ts). */
  coverage: CoverageBatch
  /** Calls of deprecated operations counted over a turn, sent with the turn's batch (deprecation-batch.ts). */
  deprecations: DeprecationBatch
  /** Journal entries gathered over a turn, one call per session (turn-groups.ts sendRecords). */
  records: TurnGroups
  /** Each tenant's pool and that of the sessions of no tenant (issue 39). */
  pools: RedisPools
}

/**
 * One session, as stored in Redis (the key layout is in the scripts'
 * comments): the state port's methods, each one command or one script, so
 * that any replica answers any request as a single process would. An object
 * lives for one request (or one admin call): what the selecting script read
 * up front (latency, rate limit, clock, whether there are rules) spares the
 * hot path a round trip per stage, and is as fresh as the selection.
 */
export class RedisSession implements SessionState {
  readonly name: string
  readonly #ctx: SessionContext
  readonly #base: string
  #meta: SessionMeta | undefined
  /** The timelines the last takeFault that took no rule read beside the rules, until timelineRules takes them. */
  #timelinesRead: FaultRule[] | undefined
  /** The read the selection answered ahead, until it is used or a change of pets makes it stale. */
  #ahead: AheadRead | undefined

  constructor(ctx: SessionContext, name: string, meta?: SessionMeta, ahead?: AheadRead) {
    this.name = name
    this.#ctx = ctx
    this.#base = `${ctx.prefix}:s:${name}:`
    this.#meta = meta
    this.#ahead = ahead
  }

  /** The reply read ahead for exactly this read, once; undefined when there is none. */
  #aheadFor(matches: (read: ReadAhead) => boolean): { reply: Reply } | undefined {
    const ahead = this.#ahead
    this.#ahead = undefined
    return ahead !== undefined && matches(ahead.read) ? ahead : undefined
  }

  get maxPets(): number {
    return this.#ctx.start.maxPets
  }

  get channel(): string {
    return `${this.#ctx.prefix}:ev:${this.name}`
  }

  #call<T>(promise: Promise<T>): Promise<T> {
    return promise.catch(this.#ctx.failed)
  }

  #run(name: Parameters<RunScript>[0], ...args: ScriptArg[]): Promise<Reply> {
    return this.#call(this.#ctx.run(name, this.#base, ...args))
  }

  #withMeta<R>(use: (meta: SessionMeta) => MaybePromise<R>): MaybePromise<R> {
    const meta = this.#meta
    if (meta !== undefined) return use(meta)
    return this.#run('psMeta').then((reply) => use((this.#meta = parseMeta(reply as string))))
  }

  getPet(id: number): MaybePromise<Pet | undefined> {
    const ahead = this.#aheadFor((read) => 'getPet' in read && read.getPet === id)
    if (ahead !== undefined) return parsePet(ahead.reply as string | null)
    return this.#run('psGetPet', id).then((json) => parsePet(json as string | null))
  }

  listPets(limit: number, status?: PetStatus): MaybePromise<Pet[]> {
    const ahead = this.#aheadFor(
      (read) => 'listPets' in read && read.listPets.limit === limit && read.listPets.status === status,
    )
    if (limit <= 0) return []
    if (ahead !== undefined) return parsePage(ahead.reply as string)
    return this.#run('psListPets', status === undefined ? 'i' : `i:${status}`, limit).then((page) =>
      parsePage(page as string),
    )
  }

  allPets(): Promise<Pet[]> {
    return this.#call(this.#ctx.client.zrange(`${this.#base}i`, 0, '-1')).then(parsePets)
  }

  /**
   * The session's pool (tenant-pools.ts): its tenant as the session recorded it when made (its
   * meta), or, for a session object made without its meta, as the tenants file places its name.
   */
  get #pool(): RedisPool {
    const meta = this.#meta
    return meta === undefined ? this.#ctx.pools.ofSession(this.name) : this.#ctx.pools.named(meta.tenant)
  }

  /** The pool's state share as the scripts take it: -1 for none. */
  get #limit(): number {
    return this.#pool.stateLimit
  }

  #refusal(reply: Reply): StorageRefusal | undefined {
    const pools = this.#ctx.pools
    return refusalOf(reply, pools.unownedBudgetBytes, this.#pool, pools.reservedBytes)
  }

  createPet(input: NewPet): Promise<Pet | CreateRefusal> {
    this.#ahead = undefined
    const args = [this.maxPets, petFields(input), input.status ?? '', this.#pool.prefix, petBytes(input), this.#limit]
    return this.#run('psCreatePet', ...args).then((id) => {
      if (id === '') return 'full'
      const refused = this.#refusal(id)
      if (refused) return refused
      const pet: Pet = { id: Number(id), name: input.name, categoryId: input.categoryId }
      if (input.status !== undefined) pet.status = input.status
      return Object.freeze(pet)
    })
  }

  replacePets(pets: readonly Pet[]): Promise<void | StorageRefusal> {
    this.#ahead = undefined
    const cost = petsBytes(pets)
    if (pets.length > stageSlice) {
      let largest = 0
      for (const pet of pets) largest = Math.max(largest, pet.id)
      return this.#staged(pets, cost, '', [String(largest), ''])
    }
    const args = petArgs(pets, 0, pets.length)
    return this.#run('psReplacePets', this.#pool.prefix, cost, this.#limit, args).then((reply) => this.#refusal(reply))
  }

  /**
   * Many pets written in slices (scripts/staged.lua): the budget reserved first, each slice one
   * bounded script run (awaited, so each leaves in a batch of its own and other calls run between
   * them), then one switch; `rulesCost` '': the rules kept, as they are charged; `last`: the
   * commit's last arguments (the largest id, or '' and the world without its pets). A refusal or a
   * failure changes nothing.
   */
  async #staged(
    pets: readonly Pet[],
    petsCost: number,
    rulesCost: number | '',
    last: readonly string[],
  ): Promise<void | StorageRefusal> {
    const { prefix } = this.#pool
    const begun = await this.#run('psStageBegin', prefix, petsCost, rulesCost, this.#limit)
    const refused = this.#refusal(begun)
    if (refused) return refused
    const reserved = Number(begun)
    const stage = `${this.#base}+${randomUUID()}:`
    try {
      for (let from = 0; from < pets.length; from += stageSlice) {
        await this.#run('psStageAdd', stage, stagedTtlMs, petArgs(pets, from, from + stageSlice))
      }
      const args = [prefix, stage, reserved, petsCost, rulesCost, this.#limit, ...last]
      return this.#refusal(await this.#run('psStageCommit', ...args))
    } catch (error) {
      // Redis full (507) or away (503): the staged pets go and the reservation comes back, as far as Redis lets.
      await this.#ctx.run('psStageAbort', this.#base, prefix, stage, reserved).catch(ignore)
      throw error
    }
  }

  generatorSeed(): Promise<number> {
    return this.#call(this.#ctx.client.hget(`${this.#base}m`, 'seed')).then(Number)
  }

  takeFault(target: FaultTarget, mayHold = true): MaybePromise<FaultRule | undefined> {
    return this.#withMeta((meta) => {
      // No rules: nothing to match and nothing drawn (most requests), as in memory.
      if (meta.faults === 0) return undefined
      const petId = target.petId
      const facts = target.facts?.list() ?? []
      const hold = mayHold ? '1' : ''
      const args = [target.operation, petId ?? '', petId === undefined ? '' : '1', this.#pool.prefix, hold, ...facts]
      return this.#run('psTakeFault', ...args).then((reply) => {
        // No rule taken: the timelines read beside the rules (none when nil), for timelineRules.
        const [json, ...rest] = (reply ?? ['']) as [string, ...string[]]
        this.#timelinesRead = json === '' ? rest.map((held) => parseRule(held, '')) : undefined
        return json === '' ? undefined : parseRule(json, rest[0]!)
      })
    })
  }

  mayFault(): boolean {
    // What the selection read; a session object made without it (listings) cannot tell.
    return this.#meta === undefined || this.#meta.faults > 0
  }

  timelineRules(): MaybePromise<FaultRule[]> {
    // What the request's takeFault read with its rules (mock-control.ts asks this next): no round trip.
    const read = this.#timelinesRead
    this.#timelinesRead = undefined
    if (read) return read
    return this.#run('psTimelineRules').then((reply) => (reply as string[]).map((json) => parseRule(json, '')))
  }

  countInPhase(timeline: string, key: string): Promise<number> {
    return this.#run('psPhaseCount', timeline, key).then(Number)
  }

  addFault(input: FaultRuleInput): Promise<FaultRule | FaultsFull | StorageRefusal> {
    const times = input.times === undefined ? '' : String(input.times)
    const args = [afterId(input), ruleMatch(input), times, maxFaultRules, this.#pool.prefix, this.#limit]
    return this.#run('psAddFault', ...args).then((id) => {
      if (id === null) return 'full'
      const refused = this.#refusal(id)
      if (refused) return refused
      if (this.#meta) this.#meta.faults++
      const rule: FaultRule = { id: Number(id), ...input }
      if (input.times !== undefined) rule.remaining = input.times
      return rule
    })
  }

  putFault(name: string, input: FaultRuleInput): Promise<PutFaultResult | FaultsFull | StorageRefusal> {
    const times = input.times === undefined ? '' : String(input.times)
    const stored = { name, ...input }
    const limits = [maxFaultRules, this.#pool.prefix, this.#limit, rulesCost([input])]
    const args = [name, afterId(stored), ruleMatch(input), times, ...limits]
    return this.#run('psPutFault', ...args).then((reply) => {
      if (reply === null) return 'full'
      const refused = this.#refusal(reply)
      if (refused) return refused
      const [id, created] = reply as [string, number]
      if (created === 1 && this.#meta) this.#meta.faults++
      const rule: FaultRule = { id: Number(id), ...stored }
      if (input.times !== undefined) rule.remaining = input.times
      return { rule, created: created === 1 }
    })
  }

  removeNamedFault(name: string): Promise<boolean> {
    this.#meta = undefined
    return this.#run('psRemoveNamedFault', name, this.#pool.prefix).then((removed) => removed === 1)
  }

  listFaults(): Promise<FaultRule[]> {
    return this.#run('psListFaults').then((reply) => {
      const flat = reply as string[]
      const rules: FaultRule[] = []
      for (let i = 0; i + 1 < flat.length; i += 2) rules.push(parseRule(flat[i]!, flat[i + 1]!))
      return rules
    })
  }

  removeFault(id: number): Promise<boolean> {
    this.#meta = undefined
    return this.#run('psRemoveFault', String(id), this.#pool.prefix).then((removed) => removed === 1)
  }

  clearFaults(): Promise<void> {
    if (this.#meta) this.#meta.faults = 0
    // In a script: what the rules were charged goes back with them.
    return this.#run('psClearFaults', this.#pool.prefix).then(() => undefined)
  }

  drawLatency(): MaybePromise<number | undefined> {
    return this.#withMeta((meta) => {
      const range = meta.latency
      if (range === null) return undefined
      if (range.min === range.max) return range.min
      return this.#run('psDrawLatency').then((ms) => (ms === null ? undefined : Number(ms)))
    })
  }

  rateLimitPolicy(): MaybePromise<RateLimitPolicy | undefined> {
    return this.#withMeta((meta) => meta.rateLimit)
  }

  hitRateLimit(key: string): MaybePromise<RateDecision | undefined> {
    return this.#withMeta((meta) => {
      if (meta.rateLimit === undefined) return undefined
      const args = [key, Date.now(), maxTrackedKeys, this.#pool.prefix, rateLimitKeyBytes(key)]
      return this.#run('psHitRateLimit', ...args).then((reply) => {
        if (reply === null) return undefined
        const [allowed, remaining, resetSeconds, limit, windowSeconds] = (reply as number[]).map(Number) as number[]
        return {
          allowed: allowed === 1,
          policy: { limit: limit!, windowSeconds: windowSeconds! },
          remaining: remaining!,
          resetSeconds: resetSeconds!,
        }
      })
    })
  }

  rateLimit(): Promise<RateLimitState> {
    return this.#run('psRateLimitState').then((reply) => {
      const [policy, keys] = reply as [string | null, number]
      return { policy: decodePolicy(policy), keys: Number(keys) }
    })
  }

  setRateLimit(policy: RateLimitPolicy | undefined): Promise<void> {
    if (this.#meta) this.#meta.rateLimit = policy && { ...policy }
    return this.#run('psSetRateLimit', encodePolicy(policy), this.#pool.prefix).then(() => undefined)
  }

  /**
   * Counted over the turn and sent with its batch, added up per client (deprecation-batch.ts): with
   * the journal entries of the same requests, which their answers wait for. `heard` is told once
   * Redis has answered whether these were the client's first calls.
   */
  noteDeprecatedCall(operation: string, client: DeprecationClient, now: number, heard: DeprecationHeard): FirstCall {
    const key = JSON.stringify([client.authorization, client.userAgent?.slice(0, maxUserAgentChars) ?? null])
    const session = { base: this.#base, name: this.name, pool: this.#pool.prefix }
    this.#ctx.deprecations.count(session, operation, key, client, now, heard)
    return undefined
  }

  deprecationReport(): Promise<DeprecationReport[]> {
    return this.#call(this.#ctx.client.hgetall(`${this.#base}d`)).then((fields) =>
      deprecationReport(this.#ctx.start.deprecated ?? [], fields),
    )
  }

  now(): MaybePromise<number> {
    return this.#withMeta((meta) => new MockClock(meta.clock).now())
  }

  clockView(): MaybePromise<ClockView> {
    return this.#withMeta((meta) => new MockClock(meta.clock).view())
  }

  setClock(setting: ClockSetting): Promise<ClockView> {
    const [mode, value] = encodeClock(setting)
    return this.#call(this.#ctx.client.hset(`${this.#base}m`, 'cm', mode, 'cv', value)).then(() => {
      if (this.#meta) this.#meta.clock = setting
      return new MockClock(setting).view()
    })
  }

  record(entry: Omit<JournalRecord, 'id'>): Promise<JournalRecord> {
    const stored = entry as JournalRecord
    // The entry's bytes are charged to the journal's share in the script that keeps it (journal.lua
    // record), with the entries of the same session and turn (turn-groups.ts sendRecords).
    const common = [
      this.#base,
      this.#ctx.start.journalSize,
      this.#ctx.prefix,
      this.#pool.journalLimit,
      this.#pool.prefix,
    ]
    // One `then` (no `catch` first): the hot path's every request goes through here.
    return this.#ctx.records.add(common, [encodeEntry(entry), String(recordBytes(entry))]).then((id) => {
      stored.id = Number(id)
      return stored
    }, this.#unrecorded(stored))
  }

  /**
   * What a refused record answers: Redis at its maxmemory drops the entry (counted, id 0: never
   * kept), so that the request it records is answered all the same (issue 41: a read of a full
   * Redis is a 200); Redis away is the store's error (503), as for any call.
   */
  #unrecorded(stored: JournalRecord): (error: unknown) => JournalRecord {
    return (error) => {
      if (!refusedForMemory(error)) return this.#ctx.failed(error)
      countJournalStoreFullDrop(this.#pool.tenant?.name ?? '')
      stored.id = 0
      return stored
    }
  }

  requests(query: JournalQuery = {}): Promise<JournalRecord[]> {
    const filtered = filters(query)
    const limit = query.limit ?? this.#ctx.start.journalSize
    if (limit <= 0) return Promise.resolve([])
    // Newest first, as the memory journal lists them.
    return this.#call(this.#ctx.client.lrange(`${this.#base}j`, 0, filtered ? -1 : limit - 1)).then((texts) => {
      const result: JournalRecord[] = []
      for (const text of texts) {
        if (result.length >= limit) break
        const entry = decodeEntry(text)
        if (matchesQuery(entry, query)) result.push(entry)
      }
      return result
    })
  }

  requestsDropped(): Promise<number> {
    return this.#call(this.#ctx.client.get(`${this.#base}jd`)).then((count) => Number(count ?? 0))
  }

  clearRequests(): Promise<void> {
    return this.#run('psClearJournal', this.#ctx.prefix, this.#pool.prefix).then(() => undefined)
  }

  subscribe(listener: JournalListener): () => void {
    return this.#ctx.subscribe(this.channel, this.#base, listener)
  }

  /**
   * Counted in the replica and sent, added up with the other requests of the
   * turn, in the batch that carries their journal entries, which the answers
   * wait for (coverage-batch.ts). A failure is the entry's to report (503).
   */
  countCoverage(counters: readonly string[], interaction?: InteractionNote): void {
    this.#ctx.coverage.count(this.#base, counters, interaction)
  }

  coverageCounts(): Promise<CoverageCounts> {
    return this.#call(this.#ctx.client.hgetall(`${this.#base}cv`)).then((fields) => {
      const counts: Record<string, number> = {}
      for (const [name, value] of Object.entries(fields)) counts[name] = Number(value)
      return counts
    })
  }

  keptInteractions(): Promise<KeptInteractions> {
    return this.#run('psInteractions').then((reply) => {
      const [seeds, leftOut] = reply as [string[], number]
      return { seeds: seeds.map((json) => JSON.parse(json)), leftOut: Number(leftOut) }
    })
  }

  clearCoverage(): Promise<void> {
    const b = this.#base
    return this.#call(this.#ctx.client.del(`${b}cv`, `${b}pk`, `${b}pl`, `${b}pn`)).then(() => undefined)
  }

  close(): void {
    this.#ctx.endSubscriptions(this.channel)
  }

  reset(): Promise<void> {
    this.#meta = undefined
    this.#ahead = undefined
    return this.#run('psReset', this.#ctx.template, this.#ctx.prefix).then(() => undefined)
  }

  contents(): Promise<SessionContents> {
    return this.#run('psContents').then((reply) => {
      const [metaPairs, members, flatRules] = reply as [string[], string[], string[]]
      const meta: Record<string, string> = {}
      for (let i = 0; i + 1 < metaPairs.length; i += 2) meta[metaPairs[i]!] = metaPairs[i + 1]!
      const faults: FaultRule[] = []
      for (let i = 0; i + 1 < flatRules.length; i += 2) faults.push(parseRule(flatRules[i]!, flatRules[i + 1]!))
      return {
        seed: Number(meta.seed),
        pets: parsePets(members),
        nextId: Number(meta.nextId),
        faults,
        nextFaultId: Number(meta.nf),
        latency: decodeLatency(meta.lmin, meta.lmax),
        random: decodeRandom(meta.rnd!),
        clock: new MockClock(decodeClock(meta.cm, meta.cv)).view(),
        rateLimit: decodePolicy(meta.rl),
      }
    })
  }

  load(world: World, clock: ClockSetting, rateLimit: RateLimitPolicy | undefined): Promise<void | StorageRefusal> {
    this.#meta = undefined
    this.#ahead = undefined
    const pets = world.pets.all()
    const petsCost = petsBytes(pets)
    const rulesBytes = rulesCost(world.faults)
    if (pets.length > stageSlice) {
      return this.#staged(pets, petsCost, rulesBytes, ['', encodeWorld(world, clock, rateLimit, false)])
    }
    const costs = [petsCost, rulesBytes, this.#limit]
    return this.#run('psLoad', encodeWorld(world, clock, rateLimit), this.#pool.prefix, ...costs).then((reply) =>
      this.#refusal(reply),
    )
  }

  summary(): Promise<SessionSummary> {
    return this.#run('psSummary').then((reply) => {
      const [pets, faults, requests] = (reply as number[]).map(Number) as [number, number, number]
      return { name: this.name, pets, faults, requests }
    })
  }
}
