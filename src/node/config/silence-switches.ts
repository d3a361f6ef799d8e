import { petStatuses } from '../../core/spec/pet.js'
import type { SpecSilences } from '../../core/spec/silences.js'

/** One switch: its option key, flag, variable, the values it takes and what it decides. */
export interface SilenceSwitch {
  key: keyof SpecSilences
  flag: string
  env: string
  /** The values as written on a command line. */
  values: string
  help: string
}

/** Every switch, in the order they are listed. */
export const silenceSwitches: readonly SilenceSwitch[] = [
  {
    key: 'limitRange',
    flag: 'limit-range',
    env: 'PETSTORE_MOCK_LIMIT_RANGE',
    values: 'reject|clamp',
    help: 'A listPets limit outside 1-100: reject (400) or clamp to the nearest bound',
  },
  {
    key: 'defaultStatus',
    flag: 'default-status',
    env: 'PETSTORE_MOCK_DEFAULT_STATUS',
    values: `none|${petStatuses.join('|')}`,
    help: 'The status of a pet created without one: none (no status key) or that value',
  },
  {
    key: 'categories',
    flag: 'categories',
    env: 'PETSTORE_MOCK_CATEGORIES',
    values: 'any|ID,ID,…',
    help: 'The categoryIds a new pet may have: any, or only these (400 otherwise)',
  },
  {
    key: 'unknownFields',
    flag: 'unknown-fields',
    env: 'PETSTORE_MOCK_UNKNOWN_FIELDS',
    values: 'ignore|reject',
    help: 'Fields of a createPet body the contract does not define: ignore (never stored) or reject (400)',
  },
]
