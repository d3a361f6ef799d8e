import { type ClockSetting, MockClock } from '../time/clock.js'
import { DeprecationLog } from '../deprecation/deprecation-log.js'
import { FaultRules } from '../faults/fault-rules.js'
import { Journal } from '../journal/journal.js'
import type { Pet } from '../spec/pet.js'
import { PetIndex } from '../pets/pet-index.js'
import { type Random, restoreRandom } from '../faults/random.js'
import { RateLimiter, type RateLimitPolicy } from '../rate-limit/rate-limit.js'
import type { SpecOperation } from '../spec/spec.js'
import { PetStore } from '../pets/pet-store.js'
import type { LatencyRange, World } from './world.js'
import type { SessionContents, SessionState, SessionStore, SessionSummary } from './port.js'
import type { RateLimitState } from '../rate-limit/rate-limit-slice.js'
import type { NewPet, PetStatus } from '../spec/pet.js'
import type { DeprecationClient, FirstCall, DeprecationReport } from '../deprecation/deprecation-log.js'
import {
  type FaultRule,
  type FaultRuleInput,
  type FaultsFull,
  type FaultTarget,
  maxFaultRules,
  type PutFaultResult,
} from '../faults/rule-check.js'
import type { RateDecision } from '../rate-limit/rate-limit.js'
import type { JournalListener, JournalQuery, JournalRecord } from '../journal/journal.js'
import type { ClockView } from '../time/clock.js'
import type { CreateRefusal } from '../pets/pet-store.js'
import { CoverageLedger } from '../coverage/coverage-ledger.js'
import type { CoverageCounts } from '../coverage/coverage-slice.js'
import type { InteractionNote, KeptInteractions } from '../coverage/pact-seed.js'
import {
  defaultSessionTtlSeconds,
  type SelectMode,
  type SessionOutcome,
  type SessionPolicy,
  sessionOf,
} from './lifecycle.js'
import { type Tombstone, Tombstones } from './tombstones.js'
import type { BudgetPort } from '../budget/budget-port.js'
import { type BudgetPart, noBytes, type StorageRefusal } from '../budget/storage-refusal.js'
import { type BudgetReport, MemoryBudget } from '../budget/memory-budget.js'
import type { Tenancy } from '../tenants/tenancy.js'
import {
  deprecationClientBytes,
  deprecationOverflowBytes,
  petBytes,
  petsBytes,
  rateLimitKeyBytes,
  ruleBytes,
  rulesCost,
  sessionBytes,
} from '../budget/costs.js'

/** The name of the session used when a request names none. */
export const defaultSessionName = 'default'

/** What every session starts from, and goes back to on reset. */
export interface StartState {
  /** Pets, rules, latency, seed and generator position (the start-up options', or --snapshot's). */
  world: World
  maxPets: number
  journalSize: number
  /** The start-up clock (default: real time). */
  clock?: ClockSetting
  /** The start-up rate limit (default: none). */
  rateLimit?: RateLimitPolicy
  /** The operations whose callers the deprecation report counts. */
  deprecated?: readonly SpecOperation[]
  /** Idle expiry and who hears of drops (default: --session-ttl's default, nobody). */
  sessions?: SessionPolicy
  /**
   * The memory budget every session charges what clients make it hold (budget/): a write beyond
   * it is refused with a {@link StorageRefusal}; default: none (unlimited). The start world's pets
   * and rules are the server's own, shared by every session, and not charged. With tenants it is
   * cut into shares ({@link BudgetPort.shareOf}): a session charges its owner's.
   */
  budget?: BudgetPort
  /**
   * Who owns which session, and each tenant's quotas (tenants/); default: no tenants. A store
   * gives each tenant its guaranteed shares (issue 39), and the sessions of no tenant (the default
   * one, names no tenant's glob matches) what no tenant reserved:
   * - sessions: at most `quota.sessions` named sessions of a tenant; the sessions of no tenant at most
   *   `tenancy.unreserved('sessions', maxSessions)`. A new session beyond is refused with the outcome
   *   `full` carrying the tenant's name (`tenant`; absent for no tenant), changing nothing
   *   (sessions/lifecycle.ts maps it: 429 `quota_exceeded` for a tenant, 503 `too_many_sessions` else);
   * - state memory and journal bytes: each session charges `budget.shareOf(owner)` (the tenant's
   *   `quota.memoryMiB` and `quota.journalMiB`), so a refusal names the tenant and a journal drops
   *   the oldest entries of its own tenant's sessions only;
   * - its report (`SessionStore.memory`) carries each tenant's use against its quotas (`tenants`).
   */
  tenancy?: Tenancy
}

/**
 * One isolated world: its own pets and id counter, fault rules, latency,
 * seeded generator, journal, clock, rate limit and deprecation report. The
 * in-memory implementation of the state port ({@link SessionState}): every
 * method answers now, and each is atomic because nothing runs between its
 * statements. The fields are its own parts; the rest of the core goes through
 * the port's methods.
 */
export class Session implements SessionState {
  readonly name: string
  /** The tenant owning it (its budget is that tenant's share); undefined: a session of no tenant. */
  readonly tenant: string | undefined
  readonly #start: StartState
  store!: PetStore
  faults!: FaultRules
  /** Every random draw of the session (rule probabilities, latency), in request order. */
  random!: Random
  latency!: LatencyRange | null
  seed!: number
  /** Kept across resets, so that its subscribers stay subscribed. */
  readonly journal: Journal
  clock!: MockClock
  rateLimits!: RateLimiter
  deprecations!: DeprecationLog
  /** Contract coverage and the distinct interactions, since the start or last reset. */
  coverage!: CoverageLedger
  readonly #budget: BudgetPort
  /** Bytes charged to the budget, by part: what this session holds beyond its start world. */
  readonly #charged: Record<BudgetPart, number> = noBytes()
  /** Each timeline's current phase and how many requests its rule met in it (timeline-phase.ts). */
  readonly #phaseCounts = new Map<string, { key: string; count: number }>()
  #closed = false
  /**
   * While no selection has used it since its registry made it: the tombstone its making cleared, or
   * null (SessionRegistry.discardMade may drop it). A made session is not the registry's latest, so
   * that its next selection takes the slow path, which unsets this: the fast path does nothing more.
   */
  made: Tombstone | null | undefined

  constructor(name: string, start: StartState) {
    this.name = name
    this.#start = start
    // The default session is of no tenant, whatever the globs.
    this.tenant = name === defaultSessionName ? undefined : start.tenancy?.ownerOf(name)?.name
    const budget: BudgetPort = start.budget ?? new MemoryBudget()
    this.#budget = budget.shareOf?.(this.tenant) ?? budget
    this.journal = new Journal(start.journalSize, this.#budget)
    this.#note('sessions', sessionBytes)
    this.reset()
  }

  // Budget hooks: what the session holds is charged (refusable) or noted (kept while answering a read).
  #note(part: BudgetPart, bytes: number): void {
    this.#budget.note(part, bytes)
    this.#charged[part] += bytes
  }

  #release(part: BudgetPart, bytes: number = this.#charged[part]): void {
    this.#budget.release(part, bytes)
    this.#charged[part] -= bytes
  }

  /** Atomic: moves what `part` is charged to `bytes`; a refused growth changes nothing. */
  #resize(part: BudgetPart, bytes: number): StorageRefusal | undefined {
    const grow = bytes - this.#charged[part]
    if (grow < 0) this.#release(part, -grow)
    if (grow <= 0) return undefined
    const refused = this.#budget.charge(part, grow)
    if (!refused) this.#charged[part] += grow
    return refused
  }

  /** Atomic: the pets and rules of a new world charged together, or neither. */
  #resizeWorld(pets: number, rules: number): StorageRefusal | undefined {
    const before = this.#charged.pets
    const refused = this.#resize('pets', pets)
    if (refused) return refused
    const rulesRefused = this.#resize('rules', rules)
    if (rulesRefused) this.#resize('pets', before)
    return rulesRefused
  }

  // Rules leave by themselves (a `times` count used up): what they are charged follows what is left.
  #syncRules(): void {
    this.#resize('rules', rulesCost(this.faults.list()))
  }

  /**
   * Back to the start-up state: seed pets, start-up rules, empty journal, id
   * counter, start-up clock and rate limit, empty deprecation report.
   */
  reset(): void {
    // The start world is the server's own, shared by every session: it is charged nothing.
    this.#resizeWorld(0, 0)
    this.#setWorld(this.#start.world)
    this.journal.clear()
    this.#phaseCounts.clear()
    this.clock = new MockClock(this.#start.clock)
    this.setRateLimit(this.#start.rateLimit)
    this.deprecations = new DeprecationLog(this.#start.deprecated ?? [])
    this.coverage = new CoverageLedger()
    this.#release('deprecations')
  }

  /** A new rate limit (none: off), with every window fresh. */
  setRateLimit(policy: RateLimitPolicy | undefined): void {
    this.rateLimits = new RateLimiter(policy)
    this.#release('rateLimits')
  }

  /** Replaces the world (validated by the caller); the journal, clock and rate limit stay. Refused beyond the budget. */
  restore(world: World): StorageRefusal | undefined {
    // A load checked in slices may end after its session was dropped: it goes with the session.
    if (this.#closed) return undefined
    const refused = this.#resizeWorld(petsBytes(world.pets.all()), rulesCost(world.faults))
    if (refused) return refused
    this.#setWorld(world)
    return undefined
  }

  #setWorld(world: World): void {
    this.random = restoreRandom(world.random)
    this.store = new PetStore(world.pets, this.#start.maxPets, world.nextId)
    this.faults = FaultRules.restore(this.random, world.faults, world.nextFaultId)
    this.latency = world.latency
    this.seed = world.seed
  }

  /** Replaces the pets (validated by the caller); new ids continue after the largest. Refused beyond the budget. */
  replacePets(pets: readonly Pet[]): StorageRefusal | undefined {
    if (this.#closed) return undefined
    const refused = this.#resize('pets', petsBytes(pets))
    if (refused) return refused
    this.store = new PetStore(PetIndex.from(pets), this.#start.maxPets)
    return undefined
  }

  get maxPets(): number {
    return this.#start.maxPets
  }

  /** Ends what is tied to the session (event streams): it is being dropped. */
  close(): void {
    this.made = undefined
    this.journal.endSubscriptions()
    if (this.#closed) return
    // Everything it held goes back to the budget.
    this.#closed = true
    this.journal.clear()
    for (const part of Object.keys(this.#charged) as BudgetPart[]) this.#release(part)
  }

  /** Sizes, for listings. */
  summary(): SessionSummary {
    return { name: this.name, pets: this.store.size, faults: this.faults.size, requests: this.journal.size }
  }

  getPet(id: number): Pet | undefined {
    return this.store.get(id)
  }

  listPets(limit: number, status?: PetStatus): Pet[] {
    return this.store.list(limit, status)
  }

  allPets(): Pet[] {
    return this.store.all()
  }

  createPet(input: NewPet): Pet | CreateRefusal {
    return this.#chargedFor('pets', petBytes(input), () => this.store.create(input))
  }

  /** Charges `bytes` to `part`, then makes what they pay for: a refusal changes nothing, a 'full' gives them back. */
  #chargedFor<T>(part: BudgetPart, bytes: number, make: () => T): T | StorageRefusal {
    const refused = this.#budget.charge(part, bytes)
    if (refused) return refused
    const made = make()
    if (made === 'full') this.#budget.release(part, bytes)
    else this.#charged[part] += bytes
    return made
  }

  generatorSeed(): number {
    return this.seed
  }

  takeFault(target: FaultTarget, mayHold = true): FaultRule | undefined {
    const taken = this.faults.match(target, mayHold)
    // A rule used up is a rule (never a timeline): its charge goes, not the timelines' texts measured again.
    if (taken?.remaining === 0) this.#resize('rules', Math.max(0, this.#charged.rules - ruleBytes))
    return taken
  }

  mayFault(): boolean {
    return this.faults.size > 0
  }

  timelineRules(): FaultRule[] {
    return this.faults.timelines() as FaultRule[]
  }

  countInPhase(timeline: string, key: string): number {
    const counted = this.#phaseCounts.get(timeline)
    if (counted !== undefined && counted.key === key) return ++counted.count
    // One count per timeline; a session's timelines are few (maxFaultRules bounds them all the same).
    if (this.#phaseCounts.size >= maxFaultRules) this.#phaseCounts.clear()
    this.#phaseCounts.set(timeline, { key, count: 1 })
    return 1
  }

  addFault(input: FaultRuleInput): FaultRule | FaultsFull | StorageRefusal {
    return this.#chargedFor('rules', ruleBytes, () => this.faults.add(input))
  }

  putFault(name: string, input: FaultRuleInput): PutFaultResult | FaultsFull | StorageRefusal {
    // A new name costs its rule; a replace what it holds more (or less) than the rule it replaces.
    const bytes = rulesCost([input]) - rulesCost(this.faults.list().filter((rule) => rule.name === name))
    const refused = this.#resize('rules', this.#charged.rules + bytes)
    if (refused) return refused
    const put = this.faults.put(name, input)
    if (put === 'full') this.#resize('rules', this.#charged.rules - bytes)
    return put
  }

  removeNamedFault(name: string): boolean {
    const removed = this.faults.removeNamed(name)
    this.#syncRules()
    return removed
  }

  listFaults(): FaultRule[] {
    return this.faults.list()
  }

  removeFault(id: number): boolean {
    const removed = this.faults.remove(id)
    this.#syncRules()
    return removed
  }

  clearFaults(): void {
    this.faults.clear()
    this.#syncRules()
  }

  drawLatency(): number | undefined {
    const range = this.latency
    if (range === null) return undefined
    return range.min === range.max ? range.min : this.random.int(range.min, range.max)
  }

  rateLimitPolicy(): RateLimitPolicy | undefined {
    return this.rateLimits.policy
  }

  hitRateLimit(key: string): RateDecision | undefined {
    if (!this.rateLimits.policy) return undefined
    const keys = this.rateLimits.size
    const decision = this.rateLimits.take(key, this.clock.now())
    // A new key (a full table forgets its least recent one, whose cost is taken as the same).
    if (this.rateLimits.size > keys) this.#note('rateLimits', rateLimitKeyBytes(key))
    return decision
  }

  rateLimit(): RateLimitState {
    return { policy: this.rateLimits.policy, keys: this.rateLimits.size }
  }

  noteDeprecatedCall(operation: string, client: DeprecationClient, now: number): FirstCall {
    // Answered now: `heard` is for stores that answer later.
    const first = this.deprecations.record(operation, client, now)
    if (first) this.#note('deprecations', first === 'client' ? deprecationClientBytes : deprecationOverflowBytes)
    return first
  }

  deprecationReport(): DeprecationReport[] {
    return this.deprecations.report()
  }

  now(): number {
    return this.clock.now()
  }

  clockView(): ClockView {
    return this.clock.view()
  }

  setClock(setting: ClockSetting): ClockView {
    this.clock.set(setting)
    return this.clock.view()
  }

  record(entry: Omit<JournalRecord, 'id'>): JournalRecord {
    return this.journal.record(entry)
  }

  requests(query?: JournalQuery): JournalRecord[] {
    return this.journal.list(query)
  }

  requestsDropped(): number {
    return this.journal.dropped
  }

  clearRequests(): void {
    this.journal.clear()
  }

  subscribe(listener: JournalListener): () => void {
    return this.journal.subscribe(listener)
  }

  countCoverage(counters: readonly string[], interaction?: InteractionNote): void {
    this.coverage.count(counters, interaction)
  }

  coverageCounts(): CoverageCounts {
    return this.coverage.counts()
  }

  keptInteractions(): KeptInteractions {
    return this.coverage.interactions()
  }

  clearCoverage(): void {
    this.coverage.clear()
  }

  contents(): SessionContents {
    return {
      seed: this.seed,
      pets: this.store.all(),
      nextId: this.store.nextId,
      faults: this.faults.list(),
      nextFaultId: this.faults.nextId,
      latency: this.latency,
      random: this.random.state(),
      clock: this.clock.view(),
      rateLimit: this.rateLimits.policy,
    }
  }

  load(world: World, clock: ClockSetting, rateLimit: RateLimitPolicy | undefined): StorageRefusal | undefined {
    const refused = this.restore(world)
    if (refused) return refused
    this.clock.set(clock)
    this.setRateLimit(rateLimit)
    return undefined
  }
}

/**
 * Named sessions, created on first use from the start state; dropped when
 * asked, or once idle past the TTL (leaving a tombstone: sessions/lifecycle.ts).
 * At the cap a new session is refused, never made by evicting a live one.
 */
export class SessionRegistry implements SessionStore {
  readonly #sessions = new Map<string, Session>()
  /** When each session (but the default) was last used, epoch ms. */
  readonly #used = new Map<Session, number>()
  readonly #tombstones = new Tombstones()
  readonly #start: StartState
  readonly #ttlMs: number
  readonly #now: () => number
  readonly #onDrop: ((stone: Tombstone) => void) | undefined
  /** Named sessions by owner (undefined: of no tenant), against each one's cap. */
  readonly #owned = new Map<string | undefined, number>()
  readonly #caps = new Map<string | undefined, number>()
  #dropped = 0
  /** The most recently used session: asked for again, it needs no reordering. */
  #latest: Session | undefined

  constructor(start: StartState, max: number) {
    this.#start = start
    this.#ttlMs = start.sessions?.ttlMs ?? defaultSessionTtlSeconds * 1000
    this.#now = start.sessions?.now ?? Date.now
    this.#onDrop = start.sessions?.onDrop
    const tenancy = start.tenancy
    this.#caps.set(undefined, tenancy ? tenancy.unreserved('sessions', max) : max)
    for (const tenant of tenancy?.tenants ?? []) this.#caps.set(tenant.name, tenant.quota.sessions)
    this.#sessions.set(defaultSessionName, new Session(defaultSessionName, start))
  }

  select(name: string = defaultSessionName, mode: SelectMode = 'use'): Session | SessionOutcome<Session> {
    const latest = this.#latest
    if (latest !== undefined && latest.name === name) {
      if (name === defaultSessionName || this.#ttlMs === 0) return latest
      const now = this.#now()
      if (now - this.#used.get(latest)! <= this.#ttlMs) {
        this.#used.set(latest, now)
        return latest
      }
    }
    return this.#select(name, mode)
  }

  #select(name: string, mode: SelectMode): Session | SessionOutcome<Session> {
    let session = this.#sessions.get(name)
    if (session !== undefined && this.#expired(session, this.#now())) session = undefined
    if (session !== undefined) {
      // Map order is insertion order: re-inserting makes it the most recent.
      this.#sessions.delete(name)
      this.#sessions.set(name, session)
      this.#touch(session)
      session.made = undefined
      return session
    }
    const tombstone = this.#tombstones.get(name)
    if (tombstone !== undefined && mode !== 'revive') return { outcome: 'expired', tombstone }
    if (mode === 'read') return { outcome: 'unknown', name }
    // The cap counts the named sessions: the default one always exists. With tenants, each owner
    // (a tenant, or no tenant) has its own: one at its cap refuses no other.
    const owner = this.#start.tenancy?.ownerOf(name)?.name
    if (this.#full(owner)) this.sweep()
    if (this.#full(owner)) {
      const sessions = this.#owned.get(owner) ?? 0
      const max = this.#caps.get(owner)!
      return owner === undefined
        ? { outcome: 'full', sessions, max }
        : { outcome: 'full', sessions, max, tenant: owner }
    }
    this.#tombstones.remove(name)
    session = new Session(name, this.#start)
    this.#sessions.set(name, session)
    this.#owned.set(owner, (this.#owned.get(owner) ?? 0) + 1)
    // Last in recency order, and not #latest (see Session.made): the next selection of any session
    // takes the slow path, which marks a made one used and keeps the order.
    this.#touch(session)
    this.#latest = undefined
    session.made = tombstone ?? null
    return { outcome: 'created', session }
  }

  #full(owner: string | undefined): boolean {
    return (this.#owned.get(owner) ?? 0) >= this.#caps.get(owner)!
  }

  #touch(session: Session): void {
    if (session.name !== defaultSessionName) this.#used.set(session, this.#now())
    this.#latest = session
  }

  /** Whether `session` is idle past the TTL; if so it is dropped, leaving its tombstone. */
  #expired(session: Session, now: number): boolean {
    if (this.#ttlMs === 0 || session.name === defaultSessionName) return false
    const used = this.#used.get(session)!
    if (now - used <= this.#ttlMs) return false
    this.#remove(session)
    const stone: Tombstone = { name: session.name, at: now, reason: 'idle', ttlSeconds: this.#ttlMs / 1000 }
    this.#tombstones.add(stone)
    this.#dropped++
    this.#onDrop?.(stone)
    return true
  }

  /** Drops every session idle past the TTL (each leaving its tombstone). */
  sweep(): void {
    if (this.#ttlMs === 0) return
    const now = this.#now()
    for (const session of [...this.#sessions.values()]) this.#expired(session, now)
  }

  #remove(session: Session): void {
    this.#sessions.delete(session.name)
    this.#owned.set(session.tenant, this.#owned.get(session.tenant)! - 1)
    this.#used.delete(session)
    if (this.#latest === session) this.#latest = undefined
    session.close()
  }

  /** The default session, without touching its recency. */
  get default(): Session {
    return this.#sessions.get(defaultSessionName)!
  }

  /** Ends what every session holds open (the server stops). */
  close(): void {
    for (const session of this.#sessions.values()) session.close()
  }

  /** The named session, created when new (throws the error of an outcome that leaves none); marks it most recently used. */
  session(name: string = defaultSessionName): Session {
    return sessionOf(this.select(name, 'use'))
  }

  /** Every session, least recently used first (those idle past the TTL dropped first). */
  sessions(): Session[] {
    this.sweep()
    return [...this.#sessions.values()]
  }

  tombstones(): Tombstone[] {
    this.sweep()
    return this.#tombstones.list()
  }

  /** Drops a session; the default one cannot be dropped. No tombstone: it was asked for. */
  dropSession(name: string): boolean {
    const session = this.#sessions.get(name)
    if (name === defaultSessionName || !session) return false
    this.#remove(session)
    return true
  }

  discardMade(session: SessionState): boolean {
    // Set on a registered session only (close() unsets it).
    const tombstone = (session as Session | undefined)?.made
    if (tombstone !== undefined) {
      this.#remove(session as Session)
      if (tombstone) this.#tombstones.add(tombstone)
    }
    return tombstone !== undefined
  }

  /** What the memory budget holds, each tenant's sessions counted against its quota (those idle past the TTL dropped first). */
  memory(): BudgetReport {
    this.sweep()
    const budget: BudgetPort = this.#start.budget ?? new MemoryBudget()
    return budget.report?.((tenant) => this.#owned.get(tenant) ?? 0) ?? new MemoryBudget().report()
  }

  stats(): { pets: number; sessions: number; dropped: number } {
    this.sweep()
    return { pets: this.default.store.size, sessions: this.#sessions.size, dropped: this.#dropped }
  }
}
