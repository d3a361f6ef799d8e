import type { AppOptions } from '../../core/app.js'
import { createLogger, type LogSink } from '../../core/log/log.js'
import { createProxy } from '../../core/proxy/create-proxy.js'
import type { SpecSilences } from '../../core/spec/silences.js'
import { adminAccess } from '../config/admin-access.js'
import { adminTokenOptions } from '../config/admin-tokens.js'
import type { Config } from '../config/config.js'
import { nodeTransport } from '../server/node-transport.js'
import { jsonDataReader, yamlCodec } from '../yaml/codec.js'
import type { StartData } from './start-data.js'

const silencesOf = (config: Config): SpecSilences => ({
  limitRange: config.limitRange,
  defaultStatus: config.defaultStatus,
  categories: config.categories,
  unknownFields: config.unknownFields,
})

// process.stdout is built on first use: a silent start never builds it.
const stdoutSink: LogSink = { write: (text) => process.stdout.write(text) }

/**
 * The app's options for a Config and what it read (the Node host's transport, YAML codec, JSON data
 * reader and request log on stdout); the options left unset keep the app's defaults.
 */
export const appOptionsFromConfig = (config: Config, { spec, pets, snapshot, faults }: StartData): AppOptions => ({
  spec,
  pets,
  apiKeys: config.apiKeys,
  bodyLimit: config.bodyLimit,
  maxPets: config.maxPets,
  maxSessions: config.maxSessions,
  seed: config.seed,
  journalSize: config.journalSize,
  ...(config.redact.length > 0 && { redact: config.redact }),
  cors: config.cors ? (config.corsOrigins.length > 0 ? config.corsOrigins : '*') : false,
  logger: createLogger(config.log, stdoutSink),
  transport: nodeTransport,
  yaml: yamlCodec,
  jsonData: jsonDataReader,
  ...(faults !== undefined && { faults }),
  ...(snapshot !== undefined && { snapshot }),
  ...(config.delay !== undefined && { delay: config.delay }),
  ...adminTokenOptions(config),
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
