import { redactAuthorization } from '../../core/http/request/authorization.js'
import { formatRate } from '../../core/rate-limit/rate-limit.js'
import { formatSilence, silenceDefaults } from '../../core/spec/silences.js'
import { packageVersion as version } from '../../generated/contract.js'
import { redactStore } from '../store/store-option.js'
import { adminAccessBanner, isLoopback } from '../config/admin-access.js'
import { adminTokensBanner, adminTokensOf } from '../config/admin-tokens.js'
import type { Config } from '../config/config.js'
import type { Tenant } from '../../core/tenants/tenant.js'
import { defaultJournalShare } from '../../core/budget/memory-budget.js'
import type { DerivedBudget } from '../memory/memory-budget-option.js'
import type { FaultRuleInput } from '../../core/faults/rule-check.js'
import { silenceSwitches } from '../config/silence-switches.js'

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

// Latency on every /v1 answer (--delay): none at 0.
const delayBanner = (config: Config): string[] => {
  const delay = config.delay
  if (delay === undefined || delay.max === 0) return []
  return delay.min === delay.max
    ? [`  delay: every /v1 answer ${delay.max} ms later (--delay)`]
    : [`  delay: every /v1 answer ${delay.min}-${delay.max} ms later, a seeded draw (--delay)`]
}

// Most rules named one a line; the rest counted (GET /__admin/faults lists them all).
const shownRules = 5

/** One rule of a --faults file in words: `createPet pet 3: 503, +200 ms, 2 times, probability 0.5, with conditions`. */
export const ruleText = (rule: FaultRuleInput): string => {
  const what: string[] = []
  if (rule.status !== undefined) what.push(String(rule.status))
  if (rule.fault !== undefined) what.push(rule.fault.replace(/_/g, ' '))
  if (rule.body !== undefined || rule.headers !== undefined) what.push('own answer')
  if (rule.breaksContract) what.push('beyond the contract')
  if (rule.delayMs !== undefined) what.push(`+${rule.delayMs} ms`)
  if (rule.times !== undefined) what.push(rule.times === 1 ? 'once' : `${rule.times} times`)
  if (rule.probability !== undefined) what.push(`probability ${rule.probability}`)
  // Their values stay out: a condition may name an API key.
  if (rule.when !== undefined) what.push('with conditions')
  const target = `${rule.operation ?? 'every operation'}${rule.petId === undefined ? '' : ` pet ${rule.petId}`}`
  return `${target}: ${what.join(', ')}`
}

// The rules a --faults file installed in every session at start-up.
const faultsBanner = (config: Config, faults: readonly FaultRuleInput[] | undefined): string[] => {
  if (faults === undefined || config.faults === undefined) return []
  const head = `  faults: ${faults.length} rule${faults.length === 1 ? '' : 's'} from ${config.faults}, in every session`
  const rows = faults.slice(0, shownRules).map((rule, i) => `    rule ${i + 1}: ${ruleText(rule)}`)
  const more = faults.length > shownRules ? [`    ${faults.length - shownRules} more: GET /__admin/faults`] : []
  return [head, ...rows, ...more]
}

const memoryBanner = ({ mib, from }: DerivedBudget, tenants: readonly Tenant[]): string => {
  // With tenants their quotas are reserved; the rest is the share of the sessions of no tenant, cut as the whole is without.
  const reserved = tenants.reduce((sum, { quota }) => sum + quota.memoryMiB + quota.journalMiB, 0)
  const rest = mib - reserved
  const journal = Math.floor(rest * defaultJournalShare)
  const split = `${journal} MiB for the journal, ${rest - journal} MiB for pets, rules and sessions (507 beyond)`
  return reserved > 0
    ? `  memory: budget ${mib} MiB (${from}): ${reserved} MiB reserved by the tenants' quotas; for the sessions of no tenant ${split}`
    : `  memory: budget ${mib} MiB (${from}): ${split}`
}

// One line a tenant: what it owns and its guaranteed shares (never a key or token).
const tenantBanner = ({ name, sessions, quota }: Tenant): string =>
  `  tenant ${name}: sessions ${sessions.join(' ')}; quota ${quota.sessions} sessions, ${quota.memoryMiB} MiB state, ${quota.journalMiB} MiB journal, ${quota.streams} streams, ${quota.held} held`

// 0.0.0.0 and :: are where a server listens, not addresses anyone can open: from this machine it
// is reached on loopback (:: takes IPv4 too, Node's default), from elsewhere by the machine's name.
const anyAddresses: ReadonlySet<string> = new Set(['0.0.0.0', '[::]'])

/** The URL to open for a server listening at `url`: loopback for a wildcard address, else the same. */
export const reachableUrl = (url: string): { url: string; allInterfaces: boolean } => {
  const parsed = new URL(url)
  if (!anyAddresses.has(parsed.hostname)) return { url, allInterfaces: false }
  parsed.hostname = '127.0.0.1'
  return { url: parsed.origin, allInterfaces: true }
}

// Most keys named, each as the journal shows it (its first characters at most): logs keep banners.
const shownKeys = 3
const keyHints = (keys: readonly string[]): string => {
  const hints = keys.slice(0, shownKeys).map((key) => redactAuthorization(`Bearer ${key}`))
  return [...hints, ...(keys.length > shownKeys ? [`${keys.length - shownKeys} more`] : [])].join(', ')
}

// A URL fit to print: a password in it hidden, as the store's is.
const withoutPassword = (text: string): string => {
  const url = new URL(text)
  if (url.password === '') return text
  url.password = '***'
  return url.toString()
}

// A start that gets here has its tokens read and an open control plane off loopback allowed (admin-tokens.ts).
const adminBanner = (config: Config): string => {
  const tokens = adminTokensOf(config)
  return adminTokensBanner(config, tokens, tokens.length === 0 && !isLoopback(config.host))
}

// Where the store's password and CAs come from: the files' paths, never their content.
const storeAccess = (config: Config): string =>
  (config.redisPasswordFile === undefined ? '' : `, password from ${config.redisPasswordFile}`) +
  (config.redisCaFile === undefined ? '' : `, TLS trusting ${config.redisCaFile}`)

/**
 * What a start prints on stderr once it listens on `listening` (its own URL): the version and a URL
 * to open, the auth mode, where the `count` pets came from (`source`), the admin API and its guards,
 * every option set away from its default that changes answers, and a curl line to paste. Secrets are
 * never in it: API keys as the journal redacts them, passwords in URLs as ***. `observed`: the lines
 * of what watches it (traces, see observe/); `faults`: the rules the --faults file installed.
 */
export const banner = (
  listening: string,
  config: Config,
  source: string,
  count: number,
  observed: readonly string[] = [],
  memory?: DerivedBudget,
  faults?: readonly FaultRuleInput[],
  tenants: readonly Tenant[] = [],
): string => {
  const { url, allInterfaces } = reachableUrl(listening)
  const tenantKeys = tenants.reduce((sum, tenant) => sum + tenant.apiKeys.length, 0)
  const keyed = config.apiKeys.length > 0 || tenantKeys > 0
  const auth =
    tenants.length > 0
      ? `${tenantKeys} tenants' key(s) and ${config.apiKeys.length} of no tenant (--api-key${config.apiKeys.length > 0 ? `: ${keyHints(config.apiKeys)}` : ''}); a key reaches only its own tenant's sessions`
      : config.apiKeys.length > 0
        ? `${config.apiKeys.length} configured API key(s): ${keyHints(config.apiKeys)}`
        : 'any well-formed bearer token (no --api-key set)'
  const key = keyed ? '<your API key>' : 'any-token'
  const where = allInterfaces
    ? ` (on all interfaces, --host ${config.host}: from other machines, use this one's name or address)`
    : ''
  return [
    `petstore-mock ${version} listening on ${url}${where}`,
    `  auth:  ${auth}`,
    `  pets:  ${count} from ${source}`,
    `  admin: ${url}/__admin (${adminBanner(config)})`,
    `  sessions: ${url}/sessions/<name>/v1 (or X-Mock-Session${config.sessionByKey ? ', or the API key: --session-by-key' : ''}); idle ${config.sessionTtl === 0 ? 'sessions never expire' : `ones expire after ${config.sessionTtl} s`}, at most ${config.maxSessions}`,
    ...(memory ? [memoryBanner(memory, tenants)] : []),
    ...tenants.map(tenantBanner),
    ...adminAccessBanner(config),
    ...timeBanner(config),
    ...delayBanner(config),
    ...faultsBanner(config, faults),
    ...silencesBanner(config),
    ...(config.proxy !== undefined
      ? [
          `  proxy: ${url}/v1 forwards to ${withoutPassword(config.proxy)} (violations in the journal and ${url}/__admin/health)`,
        ]
      : []),
    ...(config.store === 'memory'
      ? []
      : [
          `  store: ${redactStore(config.store)} (prefix ${config.storePrefix}${storeAccess(config)}), shared by every replica on it`,
        ]),
    ...observed,
    `  panel: ${url}/__admin/ (the QA panel, in a browser)`,
    `  try:   curl -H 'Authorization: Bearer ${key}' ${url}/v1/pets`,
    '',
  ].join('\n')
}
