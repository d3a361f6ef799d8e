import type { ValidateFunction } from 'ajv'
import { clockRangeExpectation, inClockRange } from '../time/clock-range.js'
import { checkRuleName, type FaultRule, type FaultRuleInput } from '../faults/rule-check.js'
import { timelineOperation } from '../faults/timeline-phase.js'
import { checkHeldTimeline } from '../faults/timelines/timeline-check.js'
import { instantExpectation, parseInstant } from '../time/instant.js'
import type { Pet } from '../spec/pet.js'
import { createRandom, type RandomState } from '../faults/random.js'
import { formatRate, parseRate, rateExpectation } from '../rate-limit/rate-limit.js'
import { SeedError, validatePetsInSlices } from '../pets/seed.js'
import { describeSchemaError } from '../spec/messages.js'
import { type Snapshot, snapshotFormat } from './snapshot.js'

// Checking a snapshot, apart from what reads and writes one (snapshot.ts): only PUT /__admin/snapshot
// and --snapshot use it, so it goes with the control plane, loaded on first use (admin/admin-host.ts).

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
    if (fields.operation === timelineOperation) {
      const held = checkHeldTimeline(name, fields, checks.validateRule)
      if (typeof held === 'string') throw new SnapshotProblem(`faults.${i}.${held}`)
      if (nameUse.has(name!))
        throw new SnapshotProblem(`faults.${i}.name ${name} is already used by faults.${nameUse.get(name!)}`)
      nameUse.set(name!, i)
      const first = firstUse.get(id)
      if (first !== undefined) throw new SnapshotProblem(`faults.${i}.id ${id} is already used by faults.${first}`)
      firstUse.set(id, i)
      return { id, name: name!, ...held }
    }
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
