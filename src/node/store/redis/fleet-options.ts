import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { FaultRuleInput } from '../../../core/faults/rule-check.js'
import type { Pet } from '../../../core/spec/pet.js'
import { formatRate } from '../../../core/rate-limit/rate-limit.js'
import type { Config } from '../../config/config.js'
import { helpGroups } from '../../cli/help-text.js'
import type { FleetOptions } from './fleet-fingerprint.js'
import type { Tenant } from '../../../core/tenants/tenant.js'

const digest = (value: unknown): string =>
  `sha256:${createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 12)}`

/** A list whose order means nothing, as one value: sorted, `none` when empty. */
const listed = (values: readonly string[]): string => (values.length === 0 ? 'none' : [...values].sort().join(' '))

/** Secrets as one digest (never in clear), order-free; `none` when there are none. */
const secrets = (values: readonly string[]): string => (values.length === 0 ? 'none' : digest([...values].sort()))
/**
 * The flags a replica may set its own way (see {@link fleetOptions}): how one process listens,
 * logs and treats its sockets, and which fleet it joins. Every other flag is in the record
 * (test/node/fleet/fleet-options.test.ts holds each flag to one of the two).
 */
export const processOnlyFlags: readonly string[] = [
  // The --help group "Listening": host, port, log, the timeouts, --max-connections, the drain.
  ...(helpGroups.find((group) => group.title === 'Listening')?.flags ?? []),
  'store',
  'store-prefix',
  'reconfigure',
  // Credentials change no answer and no limit, and replicas rightly differ while a password rotates.
  'redis-password-file',
  'redis-ca-file',
]

/** The record's field of each flag whose field has another name (the rest: the flag's own). */
export const fleetFieldOfFlag: Readonly<Record<string, string>> = {
  fixtures: 'pets',
  faker: 'pets',
  count: 'pets',
  data: 'pets',
  snapshot: 'pets',
  'admin-tokens-file': 'admin-token',
  'cors-origin': 'cors',
  'admin-cors-origin': 'admin-cors-origins',
}

/** What a start derived beside its Config that the fleet must share too. */
export interface FleetExtras {
  /** The memory budget, MiB (derived or --max-memory): the scripts enforce it fleet-wide. */
  maxMemoryMiB?: number
  /** Every admin token (flags and --admin-tokens-file), as the app gets them. */
  adminTokens?: readonly string[]
  /** /__admin open off loopback by choice (--open-admin on a non-loopback host). */
  openAdmin?: boolean
}

/**
 * The options of a start that change an answer or a limit, as the fleet's record takes them
 * (redis/fleet-fingerprint.ts), each under its option's name: the pets (their source and content),
 * the start-up rules and latency, the seed, the most pets and sessions, the journal's size, the
 * spec's silences, the clock and the rate limit (0.2.0's, legacyFleetKeys in fleet-fingerprint.ts); then (issue 41)
 * the contract, the body limit, session selection by key, the API keys, admin access (tokens as a
 * digest, open or not, hosts and origins), CORS, the memory budget, the journal's redaction, the
 * sunset policy, the proxy and the metrics route; with tenants, a digest of the whole file as read
 * (pools, keys and tokens). Secrets appear only as `sha256:` digests. Transport settings of one
 * process (timeouts, --max-connections, host, port, log) are its own: replicas may differ there.
 */
export const fleetOptions = (
  config: Config,
  pets: readonly Pet[],
  faults?: readonly FaultRuleInput[],
  tenants?: readonly Tenant[],
  extras: FleetExtras = {},
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
  spec: config.spec === undefined ? 'bundled' : digest(readFileSync(config.spec, 'utf8')),
  'body-limit': config.bodyLimit,
  'session-by-key': config.sessionByKey,
  'api-key': secrets(config.apiKeys),
  'admin-token': secrets(extras.adminTokens ?? config.adminTokens),
  'open-admin': extras.openAdmin ?? false,
  'allowed-hosts': listed(config.allowedHosts),
  'admin-cors-origins': listed(config.adminCorsOrigins),
  cors: config.cors ? (config.corsOrigins.length === 0 ? '*' : listed(config.corsOrigins)) : 'off',
  'max-memory': extras.maxMemoryMiB ?? null,
  redact: listed(config.redact),
  sunset: config.sunset,
  // A deployment's URL may carry credentials: then only its digest.
  proxy: config.proxy === undefined ? null : config.proxy.includes('@') ? digest(config.proxy) : config.proxy,
  'proxy-timeout': config.proxyTimeout,
  'proxy-flag-violations': config.proxyFlagViolations,
  metrics: config.metrics,
  tenants: tenants === undefined || tenants.length === 0 ? null : digest(tenants),
})
