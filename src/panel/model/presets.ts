import type { FaultRuleInput } from '../types.js'

/** A one-click fault rule: the button's name and the rule it adds. */
export interface Preset {
  label: string
  rule: FaultRuleInput
}

/** The presets of the Fault rules section, in the order shown. */
export const presets: readonly Preset[] = [
  { label: 'Next createPet fails with 400', rule: { operation: 'createPet', status: 400, times: 1 } },
  { label: 'Next createPet fails with 401', rule: { operation: 'createPet', status: 401, times: 1 } },
  { label: 'Next createPet fails with 503', rule: { operation: 'createPet', status: 503, times: 1 } },
  { label: 'getPet answers 404', rule: { operation: 'getPet', status: 404 } },
  { label: 'Every call 2 s slower', rule: { delayMs: 2000 } },
  { label: 'Next call resets the connection', rule: { fault: 'connection_reset', times: 1 } },
]
