import { appDefaults } from '../../core/app-options.js'
import type { LogFormat } from '../../core/log/log.js'
import { defaultSeed } from '../../core/pets/seed.js'
import type { DataProfile } from '../../core/pets/data-profile.js'
import { defaultSessionTtlSeconds } from '../../core/sessions/lifecycle.js'
import type { RateLimitPolicy } from '../../core/rate-limit/rate-limit.js'
import { silenceDefaults, type SpecSilences } from '../../core/spec/silences.js'

/** Everything the command line and environment decide (the spec's silences included, one key each). */
export interface Config extends SpecSilences {
  host: string
  port: number
  apiKeys: string[]
  fixtures?: string
  faker: boolean
  count: number
  /** The data profile --faker generates. */
  data: DataProfile
  seed: number
  spec?: string
  bodyLimit: number
  maxPets: number
  maxSessions: number
  faults?: string
  snapshot?: string
  delay?: { min: number; max: number }
  journalSize: number
  /** Header and query parameter names the journal redacts besides the defaults. */
  redact: string[]
  /** Admin tokens, each SECRET[=PATTERN][:read] (core/access/admin-scopes.ts). */
  adminTokens: string[]
  /** A file of more admin tokens, one a line. */
  adminTokensFile?: string
  /** The tenants file (YAML or JSON; core/tenants/): teams, their sessions, keys, tokens and quotas. */
  tenants?: string
  /** /__admin open without a token on a non-loopback address, by choice. */
  openAdmin: boolean
  /** Idle seconds before a session is dropped (0: never). */
  sessionTtl: number
  /** Each API key selects its own session. */
  sessionByKey: boolean
  /** Replace the fleet configuration stored in Redis. */
  reconfigure: boolean
  /** The memory budget, MiB; none: derived from the process's limits (src/node/memory/). */
  maxMemory?: number
  cors: boolean
  /** Empty: any origin. */
  corsOrigins: string[]
  /** Origins whose pages may call /__admin besides the server's own. */
  adminCorsOrigins: string[]
  /** Host names /__admin answers to besides the loopback ones. */
  allowedHosts: string[]
  log: LogFormat
  headersTimeout: number
  requestTimeout: number
  sendTimeout: number
  keepAliveTimeout: number
  /** Seconds the server goes on serving, not ready, after SIGTERM or SIGINT (server/drain.ts). */
  drainSeconds: number
  /** Seconds from SIGTERM or SIGINT to a forced exit. */
  graceSeconds: number
  /** Connections served at once; none: the server's default (512, fewer under a low `ulimit -n`). */
  maxConnections?: number
  /** The mock clock's start-up instant; none: real time. */
  clock?: Date
  sunset: 'enforce' | 'ignore'
  rateLimit?: RateLimitPolicy
  /** The deployment to stand in front of; none: the mock answers. */
  proxy?: string
  proxyTimeout: number
  proxyFlagViolations: boolean
  /** `memory`, or the URL of the Redis that holds every session (redis:// or rediss://). */
  store: string
  /** Prefix of the Redis store's keys. */
  storePrefix: string
  /** A file holding the Redis password (a mounted secret), instead of one in the store URL. */
  redisPasswordFile?: string
  /** A PEM file of the CA(s) that sign a rediss:// store's certificate, besides Node's own. */
  redisCaFile?: string
  /** GET /__admin/metrics and the per-request counts behind it (observe/). */
  metrics: boolean
}

/** The defaults of every option but `log`, which depends on the terminal. */
export const configDefaults: Omit<Config, 'log'> = {
  host: '127.0.0.1',
  port: 4010,
  apiKeys: [],
  redact: [],
  adminTokens: [],
  openAdmin: false,
  sessionTtl: defaultSessionTtlSeconds,
  sessionByKey: false,
  reconfigure: false,
  faker: false,
  count: 50,
  data: 'realistic',
  seed: defaultSeed,
  // The app's own defaults, not copies: a default changed there is changed here.
  bodyLimit: appDefaults.bodyLimit,
  maxPets: appDefaults.maxPets,
  maxSessions: appDefaults.maxSessions,
  journalSize: appDefaults.journalSize,
  cors: true,
  corsOrigins: [],
  adminCorsOrigins: [],
  allowedHosts: [],
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  sendTimeout: 30_000,
  keepAliveTimeout: 5000,
  // Why 5 and 25: docs/scale-out.md#stopping-a-replica.
  drainSeconds: 5,
  graceSeconds: 25,
  sunset: 'enforce',
  proxyTimeout: 10_000,
  proxyFlagViolations: false,
  ...silenceDefaults,
  store: 'memory',
  storePrefix: 'petstore-mock',
  metrics: true,
}
