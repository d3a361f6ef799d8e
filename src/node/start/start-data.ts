import { type FaultRuleInput, ruleValidatorFor } from '../../core/faults/rule-check.js'
import type { Pet } from '../../core/spec/pet.js'
import { fakePets } from '../../core/pets/seed.js'
import type { Snapshot } from '../../core/sessions/snapshot.js'
import { createSnapshotValidator } from '../../core/sessions/snapshot-check.js'
import { bundledSpec } from '../../core/spec/bundled-spec.js'
import type { Spec } from '../../core/spec/spec.js'
import { fixturePets, packageVersion as version } from '../../generated/contract.js'
import { UsageError } from '../config/usage-errors.js'
import type { Config } from '../config/config.js'

// yaml and Ajv, half the code, only read files given on the command line: a default start loads neither.
const files = () => import('./files.js')

/** What a Config names that is read before the app is built. */
export interface StartData {
  spec: Spec
  /** The pets every session starts with. */
  pets: Pet[]
  /** Where the pets come from, for the banner. */
  source: string
  snapshot?: Snapshot
  faults?: FaultRuleInput[]
}

// A snapshot is a whole world: the options that would set part of it are refused (cli/conflicts.ts).
const startSnapshot = async (config: Config, spec: Spec): Promise<Snapshot | undefined> => {
  if (config.snapshot === undefined) return undefined
  const validateRule = ruleValidatorFor(spec)
  const validatePet = spec.componentValidator('Pet')
  // What the file leaves out is what a start without those options has: real time, no rate limit.
  const checks = { validatePet, validateRule, seed: config.seed, version, startClock: () => null, startRateLimit: null }
  const { readSnapshot } = await files()
  return readSnapshot(config.snapshot, createSnapshotValidator(checks))
}

const seedPets = async (config: Config, spec: Spec): Promise<Pick<StartData, 'pets' | 'source'>> => {
  if (config.faker)
    return {
      pets: await fakePets(config.count, config.seed, config.data),
      source: `faker (count ${config.count}, seed ${config.seed}${config.data === 'edge' ? ', data edge' : ''})`,
    }
  if (config.fixtures === undefined && config.proxy !== undefined) {
    return { pets: [], source: 'none at start-up: --proxy records the pets the deployment answers' }
  }
  if (config.fixtures === undefined) return { pets: [...fixturePets], source: 'fixtures/pets.yaml (bundled)' }
  const { readFixtures } = await files()
  return { pets: readFixtures(config.fixtures, spec.componentValidator('Pet')), source: config.fixtures }
}

/**
 * Reads what a Config names: the contract (--spec, else the bundled one), the start-up pets (a
 * snapshot's, faker's, a fixtures file's, none with --proxy, or the bundled fixtures) and the fault
 * rules (--faults). Throws UsageError when the pets are more than --max-pets allows, SeedError or
 * DataFileError when a file is unusable.
 */
export const readStartData = async (config: Config): Promise<StartData> => {
  const spec = config.spec === undefined ? bundledSpec() : (await files()).loadSpec(config.spec)
  const snapshot = await startSnapshot(config, spec)
  const { pets, source } = snapshot
    ? { pets: snapshot.pets, source: `snapshot ${config.snapshot}` }
    : await seedPets(config, spec)
  if (pets.length > config.maxPets) {
    throw new UsageError(`${pets.length} seed pets exceed --max-pets ${config.maxPets}; raise --max-pets`)
  }
  const faults =
    config.faults === undefined ? undefined : (await files()).readFaultRules(config.faults, ruleValidatorFor(spec))
  return { spec, pets, source, ...(snapshot && { snapshot }), ...(faults && { faults }) }
}
