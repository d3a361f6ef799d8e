import type { Hono } from 'hono'
import type { AppEnv } from '../core/app-env.js'
import { type AppOptions, createApp, prepareMock } from '../core/app.js'
import { ruleValidatorFor, type FaultRuleInput } from '../core/faults/fault-rules.js'
import { createLogger, type LogSink } from '../core/http/log.js'
import { createProxy } from '../core/proxy/create-proxy.js'
import type { Pet } from '../core/pets/pet.js'
import { formatRate } from '../core/rate-limit/rate-limit.js'
import { fakePets, SeedError } from '../core/pets/seed.js'
import { formatSilence, silenceDefaults, type SpecSilences } from '../core/spec/silences.js'
import { silenceSwitches } from './cli/silence-switches.js'
import { createSnapshotValidator, type Snapshot } from '../core/sessions/snapshot.js'
import { bundledSpec } from '../core/spec/bundled-spec.js'
import type { Spec } from '../core/spec/spec.js'
import { fixturePets, packageVersion as version } from '../generated/contract.js'
import { adminAccess, adminAccessBanner } from './cli/admin-access.js'
import { adminTokensBanner, adminTokensOf, openAdminOf } from './cli/admin-tokens.js'
import { parseCommandLine, usage, UsageError } from './cli/cli.js'
import type { Config } from './cli/config.js'
import { DataFileError } from './cli/data-file-error.js'
import { nodeTransport } from './server/node-transport.js'
import { preparedRoutes } from './server/prepared-routes.js'
import { usePreparedRouter } from './server/prepared-router.js'
import { listen, type RunningServer } from './server/server.js'
import { yamlCodec } from './yaml/yaml-codec.js'
import { openStore, StoreClientMissing, type StoreFactory } from './store/open-store.js'
import { redactStore } from './store/store-option.js'
import { fleetOptions } from './store/fleet-options.js'

// yaml and Ajv, half the code, only read files given on the command line: a default start loads neither.
const files = () => import('./cli/files.js')

const seedPets = async (config: Config, spec: Spec): Promise<{ pets: Pet[]; source: string }> => {
  if (config.faker)
    return {
      pets: await fakePets(config.count, config.seed),
      source: `faker (count ${config.count}, seed ${config.seed})`,
    }
  if (config.fixtures === undefined && config.proxy !== undefined) {
    return { pets: [], source: 'none at start-up: --proxy records the pets the deployment answers' }
  }
  if (config.fixtures === undefined) return { pets: [...fixturePets], source: 'fixtures/pets.yaml (bundled)' }
  const { readFixtures } = await files()
  return { pets: readFixtures(config.fixtures, spec.componentValidator('Pet')), source: config.fixtures }
}

const silencesOf = (config: Config): SpecSilences => ({
  limitRange: config.limitRange,
  defaultStatus: config.defaultStatus,
  categories: config.categories,
  unknownFields: config.unknownFields,
})

// process.stdout is built on first use: a silent start never builds it.
const stdoutSink: LogSink = { write: (text) => process.stdout.write(text) }

const appOptions = (config: Config, spec: Spec, pets: Pet[], faults?: FaultRuleInput[]): AppOptions => ({
  spec,
  pets,
  apiKeys: config.apiKeys,
  bodyLimit: config.bodyLimit,
  maxPets: config.maxPets,
  maxSessions: config.maxSessions,
  seed: config.seed,
  journalSize: config.journalSize,
  cors: config.cors ? (config.corsOrigins.length > 0 ? config.corsOrigins : '*') : false,
  logger: createLogger(config.log, stdoutSink),
  transport: nodeTransport,
  yaml: yamlCodec,
  ...(faults !== undefined && { faults }),
  ...(config.delay !== undefined && { delay: config.delay }),
  ...adminOptions(config),
  sessionTtl: config.sessionTtl,
  sessionByKey: config.sessionByKey,
  ...adminAccess(config),
  ...(config.clock !== undefined && { clock: config.clock }),
  sunset: config.sunset,
  silences: silencesOf(config),
  ...(config.proxy !== undefined && {
    proxy: createProxy({
      url: config.proxy,
      timeoutMs: config.proxyTimeout,
      flagViolations: config.proxyFlagViolations,
    }),
  }),
  ...(config.rateLimit !== undefined && { rateLimit: config.rateLimit }),
})

// Only the switches set away from their defaults: a default start prints nothing more.
const silencesBanner = (config: Config): string[] => {
  const set = silenceSwitches
    .filter((s) => formatSilence(s.key, config[s.key]) !== formatSilence(s.key, silenceDefaults[s.key]))
    .map((s) => `--${s.flag} ${formatSilence(s.key, config[s.key])}`)
  return set.length === 0 ? [] : [`  spec silences: ${set.join(' ')}`]
}

const timeBanner = (config: Config): string[] => [
  ...(config.clock ? [`  clock: ${config.clock.toISOString()} at start-up, advancing in real time`] : []),
  ...(config.sunset === 'ignore' ? ['  sunset: ignored (deprecated operations never answer 410)'] : []),
  ...(config.rateLimit ? [`  rate limit: ${formatRate(config.rateLimit)} per API key`] : []),
]

const banner = (url: string, config: Config, source: string, count: number): string => {
  const auth =
    config.apiKeys.length > 0
      ? `${config.apiKeys.length} configured API key(s)`
      : 'any well-formed bearer token (no --api-key set)'
  const key = config.apiKeys[0] ?? 'any-token'
  return [
    `petstore-mock ${version} listening on ${url}`,
    `  auth:  ${auth}`,
    `  pets:  ${count} from ${source}`,
    `  admin: ${url}/__admin (${adminTokensBanner(config, adminTokensOf(config), adminOptions(config).openAdmin === true)})`,
    `  sessions: ${url}/sessions/<name>/v1 (or X-Mock-Session${config.sessionByKey ? ', or the API key: --session-by-key' : ''}); idle ${config.sessionTtl === 0 ? 'sessions never expire' : `ones expire after ${config.sessionTtl} s`}, at most ${config.maxSessions}`,
    ...adminAccessBanner(config),
    ...timeBanner(config),
    ...silencesBanner(config),
    ...(config.proxy !== undefined
      ? [`  proxy: ${url}/v1 forwards to ${config.proxy} (violations in the journal and ${url}/__admin/health)`]
      : []),
    ...(config.store === 'memory'
      ? []
      : [`  store: ${redactStore(config.store)} (prefix ${config.storePrefix}), shared by every replica on it`]),
    `  panel: ${url}/__admin/ (the QA panel, in a browser)`,
    `  try:   curl -H 'Authorization: Bearer ${key}' ${url}/v1/pets`,
    '',
  ].join('\n')
}

// The admin tokens (flags and file) and whether /__admin is open off loopback by choice; throws a UsageError otherwise.
const adminOptions = (config: Config): Pick<AppOptions, 'adminTokens' | 'openAdmin'> => {
  const tokens = adminTokensOf(config)
  return { adminTokens: tokens, ...(openAdminOf(config, tokens) && { openAdmin: true }) }
}

// A snapshot is a whole world: the options that would set part of it conflict with it.
const startSnapshot = async (config: Config, spec: Spec): Promise<Snapshot | undefined> => {
  if (config.snapshot === undefined) return undefined
  if (config.proxy !== undefined) {
    throw new UsageError('--proxy records a deployment and --snapshot replays a recording: choose one')
  }
  const parts = [
    config.fixtures,
    config.faker || undefined,
    config.faults,
    config.delay,
    config.clock,
    config.rateLimit,
  ]
  if (parts.some((part) => part !== undefined)) {
    throw new UsageError(
      '--snapshot sets the pets, fault rules, latency, clock and rate limit: drop --fixtures, --faker, --faults, --delay, --clock, --rate-limit',
    )
  }
  const validateRule = ruleValidatorFor(spec)
  const validatePet = spec.componentValidator('Pet')
  // What the file leaves out is what a start without those options has: real time, no rate limit.
  const checks = { validatePet, validateRule, seed: config.seed, version, startClock: () => null, startRateLimit: null }
  const { readSnapshot } = await files()
  return readSnapshot(config.snapshot, createSnapshotValidator(checks))
}

/** What a Config serves, not listening yet: the app, the seed's origin and size, and what ends its event streams. */
export interface ServerApp {
  app: Hono<AppEnv>
  source: string
  count: number
  stopping: AbortController
}

// The app on a store of the host's (Redis): built once the store's start state is in it.
const onStore = async (options: AppOptions, store: StoreFactory): Promise<Hono<AppEnv>> => {
  let made: ReturnType<StoreFactory> | undefined
  const prepared = prepareMock(options, (start, max) => (made = store(start, max)))
  try {
    await made!.ready
  } catch (error) {
    made!.close()
    throw error
  }
  return prepared.build()
}

/** Builds the app a Config serves (scripts/bundle.mjs prepares the router of the default one from it). */
export const serverApp = async (config: Config): Promise<ServerApp> => {
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
  const store = await openStore(config, {
    options: fleetOptions(config, pets, faults),
    reconfigure: config.reconfigure,
  })
  const stopping = new AbortController()
  const options: AppOptions = {
    ...appOptions(config, spec, pets, faults),
    ...(snapshot && { snapshot }),
    signal: stopping.signal,
  }
  const app = store === undefined ? createApp(options) : await onStore(options, store)
  usePreparedRouter(app, preparedRoutes)
  return { app, source, count: pets.length, stopping }
}

/** Starts the server for a Config; resolves once it listens, with the banner to print. */
export const startServer = async (config: Config): Promise<RunningServer & { banner: string }> => {
  const { app, source, count, stopping } = await serverApp(config)
  let running: RunningServer
  try {
    running = await listen(app, config)
  } catch (error) {
    // What the app holds open (a Redis store's connections) would keep a failed start alive.
    stopping.abort()
    throw error
  }
  // Open event streams end first, so that their connections close with the idle ones.
  const close = (graceMs?: number) => (stopping.abort(), running.close(graceMs))
  return { ...running, close, banner: banner(running.url, config, source, count) }
}

const stopOnSignals = (running: RunningServer): void => {
  const stop = () => {
    process.off('SIGTERM', stop)
    process.off('SIGINT', stop)
    void running.close(5000).then(() => process.exit(0))
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

/** The command: exit code 0 when served and stopped, 1 on bad seed data, 2 on a bad command line. */
export const main = async (argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number | undefined> => {
  if (argv[0] === 'verify') return (await import('../verify/command.js')).verifyCommand(argv.slice(1), env)
  try {
    const command = parseCommandLine(argv, env)
    if (command.run === 'help') return (void process.stdout.write(usage()), 0)
    if (command.run === 'version') return (void process.stdout.write(`${version}\n`), 0)
    const running = await startServer(command.config)
    stopOnSignals(running)
    // Printed only once signals are handled: whoever waits for it may stop the server at once.
    process.stderr.write(running.banner)
    return undefined
  } catch (error) {
    if (error instanceof StoreClientMissing) {
      process.stderr.write(`petstore-mock: ${error.message}\n`)
      return 2
    }
    if (error instanceof UsageError) {
      process.stderr.write(`petstore-mock: ${error.message}\n\n${usage()}`)
      return 2
    }
    const message =
      error instanceof SeedError || error instanceof DataFileError
        ? error.message
        : `cannot start: ${(error as Error).message}`
    process.stderr.write(`petstore-mock: ${message}\n`)
    return 1
  }
}
