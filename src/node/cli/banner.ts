import { formatRate } from '../../core/rate-limit/rate-limit.js'
import { formatSilence, silenceDefaults } from '../../core/spec/silences.js'
import { packageVersion as version } from '../../generated/contract.js'
import { redactStore } from '../store/store-option.js'
import { adminAccessBanner } from './admin-access.js'
import type { Config } from './config.js'
import { silenceSwitches } from './silence-switches.js'

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

/**
 * What a start prints on stderr once it listens on `url`: the version, the auth mode, where the
 * `count` pets came from (`source`), the admin API and its guards, every option set away from its
 * default that changes answers, and a curl line to paste.
 */
export const banner = (url: string, config: Config, source: string, count: number): string => {
  const auth =
    config.apiKeys.length > 0
      ? `${config.apiKeys.length} configured API key(s)`
      : 'any well-formed bearer token (no --api-key set)'
  const key = config.apiKeys[0] ?? 'any-token'
  return [
    `petstore-mock ${version} listening on ${url}`,
    `  auth:  ${auth}`,
    `  pets:  ${count} from ${source}`,
    `  admin: ${url}/__admin (${config.adminToken === undefined ? 'open: set --admin-token on shared hosts' : 'admin token required'})`,
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
