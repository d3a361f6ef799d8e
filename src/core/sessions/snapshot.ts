import type { ValidateFunction } from 'ajv'
import { clockAt, type ClockSetting, type ClockView, realClock } from '../time/clock.js'
import { clockRangeExpectation, inClockRange } from '../time/clock-range.js'
import { checkRuleName, type FaultRule, type FaultRuleInput, maxDelayMs, maxFaultRules } from '../faults/rule-check.js'
import { instantExpectation, parseInstant } from '../time/instant.js'
import type { Pet } from '../spec/pet.js'
import type { StorageRefusal } from '../budget/storage-refusal.js'
import { PetIndex } from '../pets/pet-index.js'
import { createRandom, type RandomState } from '../faults/random.js'
import { formatRate, parseRate, rateExpectation, type RateLimitPolicy } from '../rate-limit/rate-limit.js'
import { SeedError, validatePetsInSlices } from '../pets/seed.js'
import type { SessionContents, SessionState } from './port.js'
import { type MaybePromise, whenReady } from '../async/maybe-promise.js'
import { describeSchemaError } from '../spec/messages.js'
import type { LatencyRange, World } from './world.js'

/** The version of the snapshot format this server reads and writes. */
export const snapshotFormat = 1

/**
 * A reproduction bundle: a session's whole world as a document (GET and PUT
 * /__admin/snapshot, --snapshot). Restoring it and sending the same requests
 * gives the same answers, rule probabilities and latency draws included.
 */
export interface Snapshot {
  format: typeof snapshotFormat
  /** The version that wrote it; informative. */
  petstoreMock: string
  seed: number
  pets: Pet[]
  nextId: number
  faults: FaultRule[]
  nextFaultId: number
  latency: LatencyRange | null
  /** The seeded generator's position: xoroshiro128+'s four int32 words. */
  random: RandomState
  /** The mock clock (null: real time); an advancing one advances from the restore on. */
  clock: { now: string; frozen: boolean } | null
  /** The rate limit per API key (`100/m`; null: none); its windows start afresh on a restore. */
  rateLimit: string | null
}

const int = (minimum: number, maximum: number) => ({ type: 'integer', minimum, maximum }) as const
const safeId = int(1, Number.MAX_SAFE_INTEGER)

/**
 * The JSON schema of a snapshot's shape (precompiled by `npm run generate`).
 * Pets are checked against the contract's `Pet` and rules by the rule
 * validator apart; only `format` and `pets` are required, the rest defaults.
 */
export const snapshotSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['format', 'pets'],
  properties: {
    format: { type: 'integer', enum: [snapshotFormat] },
    petstoreMock: { type: 'string' },
    seed: int(0, 2 ** 32 - 1),
    pets: { type: 'array' },
    nextId: safeId,
    faults: {
      type: 'array',
      maxItems: maxFaultRules,
      items: {
        type: 'object',
        required: ['id'],
        properties: { id: safeId, name: { type: 'string' }, remaining: safeId },
      },
    },
    nextFaultId: safeId,
    latency: {
      type: 'object',
      nullable: true,
      additionalProperties: false,
      required: ['min', 'max'],
      properties: { min: int(0, maxDelayMs), max: int(0, maxDelayMs) },
    },
    random: { type: 'array', items: int(-(2 ** 31), 2 ** 31 - 1) },
    clock: {
      type: 'object',
      nullable: true,
      additionalProperties: false,
      required: ['now'],
      properties: { now: { type: 'string' }, frozen: { type: 'boolean' } },
    },
    rateLimit: { type: 'string', nullable: true },
  },
} as const

/** What checking a snapshot needs from the contract and the options. */
export interface SnapshotChecks {
  /** The contract's `Pet`. */
  validatePet: ValidateFunction
  /** The fault rule validator: the rule, or a sentence naming the field. */
  validateRule(input: unknown): FaultRuleInput | string
  /** The seed of a snapshot that gives none. */
  seed: number
  /** The version written into a snapshot that gives none. */
  version: string
  /** The clock and rate limit of a snapshot that gives none: the start-up ones (read at restore time). */
  startClock(): Snapshot['clock']
  startRateLimit: string | null
}

/** A snapshot that cannot be used; the message names the field. */
class SnapshotProblem extends Error {}

type SnapshotInput = Partial<Omit<Snapshot, 'pets' | 'faults' | 'random' | 'clock'>> & {
  pets: unknown[]
  faults?: (Partial<FaultRule> & { id: number })[]
  random?: number[]
  clock?: { now: string; frozen?: boolean } | null
}

const checkRules = (input: SnapshotInput, checks: SnapshotChecks): FaultRule[] => {
  const firstUse = new Map<number, number>()
  const nameUse = new Map<string, number>()
  return (input.faults ?? []).map(({ id, name, remaining, ...fields }, i) => {
    const rule = checks.validateRule(fields)
    if (typeof rule === 'string') throw new SnapshotProblem(`faults.${i}: ${rule}`)
    const first = firstUse.get(id)
    if (first !== undefined) throw new SnapshotProblem(`faults.${i}.id ${id} is already used by faults.${first}`)
    firstUse.set(id, i)
    if (name !== undefined) {
      const problem = checkRuleName(name)
      if (problem) throw new SnapshotProblem(`faults.${i}.${problem}`)
      const named = nameUse.get(name)
      if (named !== undefined) throw new SnapshotProblem(`faults.${i}.name ${name} is already used by faults.${named}`)
      nameUse.set(name, i)
    }
    const stored: FaultRule = name === undefined ? { id, ...rule } : { id, name, ...rule }
    if (rule.times === undefined) {
      if (remaining !== undefined) throw new SnapshotProblem(`faults.${i}.remaining applies to rules with times only`)
      return stored
    }
    if (remaining !== undefined && remaining > rule.times) {
      throw new SnapshotProblem(`faults.${i}.remaining must be at most times (${rule.times})`)
    }
    return { ...stored, remaining: remaining ?? rule.times }
  })
}

const largest = (items: readonly { id: number }[]): number => items.reduce((max, item) => Math.max(max, item.id), 0)

const nextAfter = (given: number | undefined, largest: number, field: string, what: string): number => {
  if (given === undefined) return largest + 1
  if (given <= largest) throw new SnapshotProblem(`${field} must be greater than the largest ${what} (${largest})`)
  return given
}

const checkRandom = (given: number[] | undefined, seed: number): RandomState => {
  if (given === undefined) return createRandom(seed).state()
  if (given.length !== 4) throw new SnapshotProblem('random must be 4 integers (a xoroshiro128+ state)')
  if (given.every((word) => word === 0)) throw new SnapshotProblem('random must not be all zeros')
  return given as unknown as RandomState
}

const checkClock = (input: SnapshotInput, checks: SnapshotChecks): Snapshot['clock'] => {
  if (input.clock === undefined) return checks.startClock()
  if (input.clock === null) return null
  const at = parseInstant(input.clock.now)
  if (at === undefined) throw new SnapshotProblem(`clock.now must be ${instantExpectation}`)
  // Any instant the clock can show, not only those it can be set to: a snapshot restores what it wrote.
  if (!inClockRange(at)) throw new SnapshotProblem(`clock.now must be ${clockRangeExpectation}`)
  return { now: new Date(at).toISOString(), frozen: input.clock.frozen ?? false }
}

const checkRateLimit = (input: SnapshotInput, checks: SnapshotChecks): string | null => {
  if (input.rateLimit === undefined) return checks.startRateLimit
  if (input.rateLimit === null) return null
  const policy = parseRate(input.rateLimit)
  if (!policy) throw new SnapshotProblem(`rateLimit must be ${rateExpectation}`)
  return formatRate(policy)
}

const complete = async (input: SnapshotInput, checks: SnapshotChecks): Promise<Snapshot> => {
  let pets: Pet[]
  try {
    // In slices: a large snapshot is checked while other requests are answered.
    pets = await validatePetsInSlices(input.pets, checks.validatePet, 'pets')
  } catch (error) {
    if (error instanceof SeedError) throw new SnapshotProblem(error.message)
    throw error
  }
  const faults = checkRules(input, checks)
  const latency = input.latency ?? null
  if (latency && latency.min > latency.max) throw new SnapshotProblem('latency.min must not exceed latency.max')
  const seed = input.seed ?? checks.seed
  return {
    format: snapshotFormat,
    petstoreMock: input.petstoreMock ?? checks.version,
    seed,
    pets,
    nextId: nextAfter(input.nextId, largest(pets), 'nextId', 'pet id'),
    faults,
    nextFaultId: nextAfter(input.nextFaultId, largest(faults), 'nextFaultId', 'rule id'),
    latency,
    random: checkRandom(input.random, seed),
    clock: checkClock(input, checks),
    rateLimit: checkRateLimit(input, checks),
  }
}

/**
 * Checks a snapshot (parsed JSON or YAML): the snapshot with every default
 * filled in, or a sentence naming the field. Nothing is changed either way.
 * Its pets are checked a slice at a time, other requests answered between.
 */
export const createSnapshotValidator =
  (checks: SnapshotChecks) =>
  async (input: unknown): Promise<Snapshot | string> => {
    // Loaded on first use: its own chunk in a browser bundle (msw's budget).
    const validate = (await import('../../generated/snapshot-validator.js')).snapshot as ValidateFunction
    if (!validate(input)) return describeSchemaError(validate.errors![0]!, 'A snapshot')
    try {
      return await complete(input as SnapshotInput, checks)
    } catch (error) {
      if (error instanceof SnapshotProblem) return error.message
      throw error
    }
  }

/** The session world a (checked) snapshot describes. */
export const worldOf = (snapshot: Snapshot): World => ({
  pets: PetIndex.from(snapshot.pets),
  nextId: snapshot.nextId,
  faults: snapshot.faults,
  nextFaultId: snapshot.nextFaultId,
  latency: snapshot.latency,
  seed: snapshot.seed,
  random: snapshot.random,
})

/** A snapshot's clock as a session's setting: from now on it shows `now` (and advances unless frozen). */
export const clockSettingOf = (clock: Snapshot['clock']): ClockSetting =>
  clock === null ? realClock : clockAt(Date.parse(clock.now), clock.frozen)

/** A snapshot's rate limit as a policy. */
export const rateLimitOf = (rate: string | null): RateLimitPolicy | undefined =>
  rate === null ? undefined : parseRate(rate)

/** Restores a (checked) snapshot into a session, in one change: world, clock and rate limit; the journal stays. */
export const restoreSnapshot = (session: SessionState, snapshot: Snapshot): MaybePromise<void | StorageRefusal> =>
  session.load(worldOf(snapshot), clockSettingOf(snapshot.clock), rateLimitOf(snapshot.rateLimit))

/** A clock as a snapshot writes it: null for real time. */
export const snapshotClock = ({ now, frozen, real }: ClockView): Snapshot['clock'] => (real ? null : { now, frozen })

/** A session's contents as a snapshot document. */
const snapshotDocument = (contents: SessionContents, version: string): Snapshot => ({
  format: snapshotFormat,
  petstoreMock: version,
  seed: contents.seed,
  pets: contents.pets,
  nextId: contents.nextId,
  faults: contents.faults,
  nextFaultId: contents.nextFaultId,
  latency: contents.latency,
  random: contents.random,
  clock: snapshotClock(contents.clock),
  rateLimit: contents.rateLimit ? formatRate(contents.rateLimit) : null,
})

/** A session's world as it stands, as a snapshot document. */
export const snapshotOf = (session: SessionState, version: string): MaybePromise<Snapshot> =>
  whenReady(session.contents(), (contents) => snapshotDocument(contents, version))
