import { FaultRules } from '../faults/fault-rules.js'
import { type FaultRule, type FaultRuleInput } from '../faults/rule-check.js'
import type { Pet } from '../spec/pet.js'
import { PetIndex } from '../pets/pet-index.js'
import { createRandom, type RandomState } from '../faults/random.js'

/** A latency range in ms. */
export interface LatencyRange {
  min: number
  max: number
}

/**
 * Everything a session's answers depend on, besides the requests: the pets and
 * the next id, the fault rules (remaining counts included) and the next rule
 * id, the latency, the seed and the position of the seeded generator. A
 * session starts from one and a snapshot is one. Knows nothing of HTTP.
 */
export interface World {
  /** Shared and never modified, so that starting a session from it is O(1). */
  pets: PetIndex
  nextId: number
  faults: readonly FaultRule[]
  nextFaultId: number
  latency: LatencyRange | null
  /** Seeds the generator and is POST /__admin/seed's default. */
  seed: number
  random: RandomState
}

/** The world of the start-up options: pets, rules numbered from 1, a fresh generator. */
export const startWorld = (options: {
  pets: readonly Pet[]
  faults: readonly FaultRuleInput[]
  latency: LatencyRange | undefined
  seed: number
}): World => {
  const pets = PetIndex.from(options.pets)
  const random = createRandom(options.seed)
  const rules = new FaultRules(random, options.faults)
  return {
    pets,
    nextId: pets.maxId + 1,
    faults: rules.list(),
    nextFaultId: rules.nextId,
    latency: options.latency ?? null,
    seed: options.seed,
    random: random.state(),
  }
}
