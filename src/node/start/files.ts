import { readFileSync } from 'node:fs'
import type { ValidateFunction } from 'ajv'
import { checkFaultRules, type FaultRuleInput } from '../../core/faults/rule-check.js'
import type { Pet } from '../../core/spec/pet.js'
import { SeedError, validatePets } from '../../core/pets/seed.js'
import type { Snapshot } from '../../core/sessions/snapshot.js'
import { bundledSpec } from '../../core/spec/bundled-spec.js'
import { parseSpec } from '../../core/spec/parse-spec.js'
import type { Spec } from '../../core/spec/spec.js'
import { DataFileError, readDataFile } from './data-file.js'

/**
 * The contract from an OpenAPI file (YAML or JSON), validators compiled at
 * run time; without a path, the bundled one, embedded and precompiled.
 */
export const loadSpec = (path?: string): Spec =>
  path === undefined ? bundledSpec() : parseSpec(readFileSync(path, 'utf8'))

/** Reads a JSON or YAML fixtures file and validates every entry. */
export const readFixtures = (path: string, validatePet: ValidateFunction): Pet[] => {
  try {
    return validatePets(readDataFile(path), validatePet, path)
  } catch (error) {
    throw error instanceof DataFileError ? new SeedError(error.message) : error
  }
}

/** Reads a JSON or YAML array of rules (`--faults`); throws naming the file, entry and field. */
export const readFaultRules = (
  path: string,
  validate: (input: unknown) => FaultRuleInput | string,
): FaultRuleInput[] => {
  const rules = checkFaultRules(readDataFile(path), validate, path)
  if (typeof rules === 'string') throw new DataFileError(rules)
  return rules
}

/** Reads a snapshot file (`--snapshot`, JSON or YAML); throws naming the file and the field. */
export const readSnapshot = async (
  path: string,
  validate: (input: unknown) => Promise<Snapshot | string>,
): Promise<Snapshot> => {
  const snapshot = await validate(readDataFile(path))
  if (typeof snapshot === 'string') throw new DataFileError(`${path}: ${snapshot}`)
  return snapshot
}
