import { globsOverlap } from './session-glob.js'
import type { QuotaPool, Tenant, TenantAccess, TenantToken } from './tenant.js'

/**
 * Checks a tenants document (`{ tenants: [...] }`, read from YAML or JSON)
 * into tenants, or answers one sentence naming the entry and the field that
 * is wrong (`tenants[1].quota.sessions: …`). What it checks alone: shapes,
 * names, globs, secrets, that no two tenants' globs overlap and that no
 * secret is used twice. What needs the server's pools: {@link checkTenantPools}.
 */

const NAME = /^[A-Za-z0-9._-]{1,64}$/
const GLOB = /^[A-Za-z0-9._*?-]{1,64}$/
// RFC 6750 token68 characters: what a bearer token can carry.
const SECRET = /^[A-Za-z0-9\-._~+/]+=*$/
const accesses: readonly TenantAccess[] = ['write', 'read', 'metrics']
const counts: readonly QuotaPool[] = ['sessions', 'streams', 'held']
const sizes: readonly QuotaPool[] = ['memoryMiB', 'journalMiB']
const pools: readonly QuotaPool[] = ['sessions', 'memoryMiB', 'journalMiB', 'streams', 'held']

class Refusal extends Error {}
const refuse = (at: string, message: string): never => {
  throw new Refusal(`${at}: ${message}`)
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const onlyKeys = (value: Record<string, unknown>, keys: readonly string[], at: string): void => {
  const unknown = Object.keys(value).find((key) => !keys.includes(key))
  if (unknown !== undefined) refuse(`${at}.${unknown}`, `unknown field; the fields are ${keys.join(', ')}`)
}

const list = (value: unknown, at: string): unknown[] => (Array.isArray(value) ? value : refuse(at, 'must be a list'))

const secretAt = (value: unknown, at: string): string =>
  typeof value === 'string' && SECRET.test(value)
    ? value
    : refuse(at, 'must be a bearer token: A-Z a-z 0-9 - . _ ~ + / (trailing = allowed)')

const tokenAt = (value: unknown, at: string): TenantToken => {
  if (!isObject(value)) return refuse(at, 'must be { secret, access }')
  onlyKeys(value, ['secret', 'access'], at)
  const secret = secretAt(value.secret, `${at}.secret`)
  const access = value.access ?? 'write'
  if (!accesses.includes(access as TenantAccess)) refuse(`${at}.access`, `must be one of ${accesses.join(', ')}`)
  return { secret, access: access as TenantAccess }
}

const quotaAt = (value: unknown, at: string): Tenant['quota'] => {
  if (!isObject(value)) return refuse(at, `must be { ${pools.join(', ')} }`)
  onlyKeys(value, pools, at)
  for (const pool of pools) {
    const n = value[pool]
    if (n === undefined) refuse(`${at}.${pool}`, 'is required')
    if (counts.includes(pool) && !(Number.isSafeInteger(n) && (n as number) >= 0)) {
      refuse(`${at}.${pool}`, `must be a whole number, 0 or more (got ${JSON.stringify(n)})`)
    }
    if (sizes.includes(pool) && !(typeof n === 'number' && Number.isFinite(n) && n > 0 && n <= 1024 * 1024)) {
      refuse(`${at}.${pool}`, `must be a number of MiB above 0 (got ${JSON.stringify(n)})`)
    }
  }
  if ((value.sessions as number) < 1) refuse(`${at}.sessions`, 'must be at least 1')
  return value as unknown as Tenant['quota']
}

const tenantAt = (value: unknown, at: string): Tenant => {
  if (!isObject(value)) return refuse(at, 'must be { name, sessions, apiKeys, adminTokens, quota }')
  onlyKeys(value, ['name', 'sessions', 'apiKeys', 'adminTokens', 'quota'], at)
  const { name } = value
  if (typeof name !== 'string' || !NAME.test(name)) refuse(`${at}.name`, 'must be 1 to 64 of A-Z a-z 0-9 . _ -')
  const sessions = list(value.sessions, `${at}.sessions`).map((glob, i) =>
    typeof glob === 'string' && GLOB.test(glob)
      ? glob
      : refuse(`${at}.sessions[${i}]`, 'must be a glob of 1 to 64 of A-Z a-z 0-9 . _ - and the wildcards * ?'),
  )
  if (sessions.length === 0) refuse(`${at}.sessions`, 'must name at least one glob of session names')
  const apiKeys = list(value.apiKeys ?? [], `${at}.apiKeys`).map((key, i) => secretAt(key, `${at}.apiKeys[${i}]`))
  const adminTokens = list(value.adminTokens ?? [], `${at}.adminTokens`).map((token, i) =>
    tokenAt(token, `${at}.adminTokens[${i}]`),
  )
  return { name: name as string, sessions, apiKeys, adminTokens, quota: quotaAt(value.quota, `${at}.quota`) }
}

/** Everything the tenants share with one another, checked across them. */
const checkAcross = (tenants: Tenant[], otherSecrets: readonly string[]): void => {
  const names = new Map<string, number>()
  const secrets = new Map<string, string>(otherSecrets.map((secret) => [secret, 'a --api-key or --admin-token']))
  tenants.forEach((tenant, t) => {
    const at = `tenants[${t}]`
    const twin = names.get(tenant.name)
    if (twin !== undefined) refuse(`${at}.name`, `${JSON.stringify(tenant.name)} is also the name of tenants[${twin}]`)
    names.set(tenant.name, t)
    const own: [string, string][] = [
      ...tenant.apiKeys.map((key, i): [string, string] => [key, `${at}.apiKeys[${i}]`]),
      ...tenant.adminTokens.map((token, i): [string, string] => [token.secret, `${at}.adminTokens[${i}].secret`]),
    ]
    for (const [secret, where] of own) {
      const first = secrets.get(secret)
      // Never the secret itself: the file is a mounted secret, the message goes to logs.
      if (first !== undefined) refuse(where, `this secret is also used by ${first}; every secret must be used once`)
      secrets.set(secret, where)
    }
    tenant.sessions.forEach((glob, g) => {
      tenants.slice(0, t).forEach((other, o) =>
        other.sessions.forEach((theirs, h) => {
          if (globsOverlap(glob, theirs)) {
            refuse(
              `${at}.sessions[${g}]`,
              `${JSON.stringify(glob)} overlaps tenants[${o}].sessions[${h}] ${JSON.stringify(theirs)}: a session has one tenant`,
            )
          }
        }),
      )
    })
  })
}

/**
 * The tenants of a document, checked; or one sentence naming the entry and
 * field that is wrong. `otherSecrets`: the server's other keys and tokens,
 * none of which a tenant may reuse.
 */
export const checkTenants = (document: unknown, otherSecrets: readonly string[] = []): Tenant[] | string => {
  try {
    if (!isObject(document)) return 'must be a mapping with one field, tenants'
    onlyKeys(document, ['tenants'], '(top level)')
    const tenants = list(document.tenants, 'tenants').map((value, i) => tenantAt(value, `tenants[${i}]`))
    checkAcross(tenants, otherSecrets)
    return tenants
  } catch (error) {
    if (error instanceof Refusal) return error.message
    throw error
  }
}

/** The server's pools the quotas share out. */
export interface ServerPools {
  /** The memory budget, bytes (`Infinity`: none). */
  budgetBytes: number
  maxSessions: number
  streams: number
  held: number
}

/**
 * Whether the quotas fit the server's pools: guaranteed shares, so their sums
 * may not exceed a pool (no overcommit). One sentence naming the pool, else undefined.
 */
export const checkTenantPools = (tenants: readonly Tenant[], server: ServerPools): string | undefined => {
  const sum = (pool: QuotaPool) => tenants.reduce((total, tenant) => total + tenant.quota[pool], 0)
  const mib = sum('memoryMiB') + sum('journalMiB')
  if (mib * 2 ** 20 > server.budgetBytes) {
    const budget = (server.budgetBytes / 2 ** 20).toFixed(2)
    return `the tenants' quota.memoryMiB and quota.journalMiB add up to ${mib} MiB, more than the memory budget of ${budget} MiB (--max-memory)`
  }
  const over: [QuotaPool, number, string][] = [
    ['sessions', server.maxSessions, '--max-sessions'],
    ['streams', server.streams, 'the event streams the server serves'],
    ['held', server.held, 'the requests the server holds'],
  ]
  for (const [pool, limit, what] of over) {
    if (sum(pool) > limit) return `the tenants' quota.${pool} add up to ${sum(pool)}, more than ${limit} (${what})`
  }
  return undefined
}
