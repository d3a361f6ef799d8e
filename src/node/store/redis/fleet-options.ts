import { createHash } from 'node:crypto'
import type { FaultRuleInput } from '../../../core/faults/rule-check.js'
import type { Pet } from '../../../core/spec/pet.js'
import { formatRate } from '../../../core/rate-limit/rate-limit.js'
import type { Config } from '../../config/config.js'
import type { FleetOptions } from './fleet-fingerprint.js'
import type { Tenant } from '../../../core/tenants/tenant.js'

const digest = (value: unknown): string =>
  `sha256:${createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 12)}`

/**
 * The options of a start that shape data, as the fleet's fingerprint takes
 * them (redis/fleet-fingerprint.ts): the pets (their source and content), the
 * start-up rules and latency, the seed, the most pets and sessions, the
 * journal's size, the spec's silences, the clock and the rate limit; with tenants, their pools
 * (names, session globs and quotas: the scripts count each tenant's sessions and bytes in keys of
 * its own, so replicas must agree on them). Without tenants the key is absent, so that a fleet
 * started before tenants keeps its fingerprint.
 */
export const fleetOptions = (
  config: Config,
  pets: readonly Pet[],
  faults?: readonly FaultRuleInput[],
  tenants?: readonly Tenant[],
): FleetOptions => ({
  pets: `${config.snapshot ?? config.fixtures ?? (config.faker ? `faker ${config.count}` : 'bundled')} ${digest(pets)}`,
  faults: faults === undefined ? null : digest(faults),
  delay: config.delay === undefined ? null : `${config.delay.min}-${config.delay.max}`,
  seed: config.seed,
  'max-pets': config.maxPets,
  'max-sessions': config.maxSessions,
  'journal-size': config.journalSize,
  'session-ttl': config.sessionTtl,
  'limit-range': config.limitRange,
  'default-status': String(config.defaultStatus),
  categories: String(config.categories),
  'unknown-fields': String(config.unknownFields),
  clock: config.clock === undefined ? null : config.clock.toISOString(),
  'rate-limit': config.rateLimit === undefined ? null : formatRate(config.rateLimit),
  ...(tenants !== undefined &&
    tenants.length > 0 && { tenants: digest(tenants.map(({ name, sessions, quota }) => ({ name, sessions, quota }))) }),
})
