import { readFileSync } from 'node:fs'
import type { SessionStore } from '../../core/sessions/port.js'
import type { StartState } from '../../core/sessions/memory-store.js'
import type { Config } from '../config/config.js'
import { UsageError } from '../config/usage-errors.js'
import { redactStore } from './store-option.js'
import type { FleetOptions } from './redis/fleet-fingerprint.js'
import type { RedisMaxmemory } from '../memory/redis-clamp.js'
import type { RedisAccess } from './redis/redis-store.js'

/** --store redis://… on an install without the optional client: exit 2, one line. */
export class StoreClientMissing extends Error {
  override name = 'StoreClientMissing'
}

/**
 * Redis refused this replica's credentials or TLS refused Redis's certificate at start-up: a
 * configuration to fix, not an outage to wait out (exit 2, one line, never the secret).
 */
export class StoreAccessDenied extends Error {
  override name = 'StoreAccessDenied'
}

/** A store the app is built on, what resolves once it can serve, and why it cannot take writes now (readiness). */
export type StoreFactory = ((
  start: StartState,
  maxSessions: number,
) => SessionStore & {
  ready: Promise<void>
  refusesWrites?(): Promise<string | undefined>
  /** Ends the event streams and journal waits; the store goes on serving (a drain). */
  endStreams?(): void
  /** Sends what the replica owes the store, then closes its connection (the last step of a drain). */
  quit?(): Promise<void>
}) & {
  /** Redis' `maxmemory` as read at start (the budget is clamped to what it holds: memory/redis-clamp.ts). */
  maxmemory?: RedisMaxmemory
  /** Closes the connection of a store that is never made (a start that fails before the app is built). */
  close?(): void
  /** The banner's lines about the fleet's configuration in Redis (a reconfiguration, an upgrade). */
  readonly fleetNotes?: readonly string[]
}

const isMissingClient = (error: unknown): boolean =>
  (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' && /ioredis/.test(String((error as Error).message))

type AccessConfig = Pick<Config, 'store' | 'redisPasswordFile' | 'redisCaFile'>

const readSecretFile = (flag: string, path: string): string => {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    // The error names the path and the reason (ENOENT, EACCES), never the content.
    throw new UsageError(`${flag} ${path} cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`)
  }
}

/**
 * The password and CAs --redis-password-file and --redis-ca-file name (mounted secrets): a file
 * that cannot be read or is empty stops the start (exit 2) naming the file, never its content. One
 * trailing newline of the password is dropped (`echo pw > file`, editors); anything else is kept.
 */
export const redisAccessOf = (config: AccessConfig): RedisAccess => {
  const access: RedisAccess = {}
  if (config.redisPasswordFile !== undefined) {
    const password = readSecretFile('--redis-password-file', config.redisPasswordFile).replace(/\r?\n$/, '')
    if (password === '')
      throw new UsageError(`--redis-password-file ${config.redisPasswordFile} is empty: a Redis password must have one`)
    access.password = password
  }
  if (config.redisCaFile !== undefined) {
    const ca = readSecretFile('--redis-ca-file', config.redisCaFile)
    if (!ca.includes('-----BEGIN CERTIFICATE-----'))
      throw new UsageError(
        `--redis-ca-file ${config.redisCaFile} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`,
      )
    access.ca = ca
  }
  return access
}

// Node's certificate verification codes (tls.TLSSocket's authorizationError, OpenSSL's names).
const certificateCodes =
  /^(SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_(HAS_EXPIRED|NOT_YET_VALID|UNTRUSTED|REJECTED|SIGNATURE_FAILURE)|ERR_TLS_CERT_ALTNAME_INVALID)$/

/** Why Redis or TLS refused this replica, as a sentence naming what to fix; undefined for anything else. */
const accessProblem = (error: unknown, config: AccessConfig): string | undefined => {
  const store = redactStore(config.store)
  const message = String((error as Error)?.message)
  const code = String((error as { code?: unknown })?.code)
  const where = config.redisPasswordFile === undefined ? 'the URL' : `--redis-password-file ${config.redisPasswordFile}`
  if (/^NOAUTH\b/.test(message))
    return `the store ${store} requires a password (Redis answered NOAUTH): put it in the URL (redis://[user]:password@host) or in a file named by --redis-password-file`
  if (/^WRONGPASS\b/.test(message))
    return `the store ${store} refused the user and password of ${where} (Redis answered WRONGPASS: wrong password, unknown user, or user disabled)`
  if (/^NOPERM\b/.test(message))
    return `the store ${store} lets this user connect but not use the mock's keys or commands (Redis answered: ${message.replace(/\s+/g, ' ')}); its ACL needs ~<prefix>:* &<prefix>:* +@all -@dangerous +info (docs/scale-out.md)`
  if (certificateCodes.test(code))
    return `the store ${store} presented a certificate this replica does not trust (${code}: ${message}): name the CA that signs it with --redis-ca-file, or check the host name in the URL`
  return undefined
}

/**
 * What the store's failure suggests when its URL and its port disagree on TLS, for the message; else ''.
 * Redis' TLS port resets a plain client at its first command, and a plain port never answers a TLS
 * handshake (the connection times out): neither error names the cause.
 */
const tlsHint = (error: unknown, store: string): string => {
  const text = `${String((error as { code?: unknown })?.code)} ${String((error as Error)?.message)}`
  if (!store.startsWith('rediss://'))
    return /\bECONNRESET\b/.test(text) ? '; if that port speaks TLS, write rediss://…' : ''
  return /\bETIMEDOUT\b|\bEPROTO\b|\bECONNRESET\b|\bERR_SSL_|wrong version number/.test(text)
    ? '; if that port does not speak TLS, write redis://…'
    : ''
}

/**
 * The store --store names: undefined for memory (the app's own, unchanged), or
 * the Redis store, connected. Its client is loaded only here, so that a
 * memory start loads none of it.
 */
export const openStore = async (
  config: Pick<Config, 'store' | 'storePrefix' | 'redisPasswordFile' | 'redisCaFile'>,
  fleet?: { options: FleetOptions; reconfigure: boolean },
): Promise<StoreFactory | undefined> => {
  if (config.store === 'memory') return undefined
  const access = redisAccessOf(config)
  let redis: typeof import('./redis/redis-store.js')
  try {
    redis = await import('./redis/redis-store.js')
  } catch (error) {
    if (!isMissingClient(error)) throw error
    throw new StoreClientMissing(`--store ${redactStore(config.store)} needs the Redis client: npm install ioredis`)
  }
  try {
    return await redis.openRedisStore({
      url: config.store,
      prefix: config.storePrefix,
      access,
      ...(fleet && { fleet }),
    })
  } catch (error) {
    if ((error as Error).name === 'FleetMismatch') throw error
    const problem = accessProblem(error, config)
    if (problem !== undefined) throw new StoreAccessDenied(problem)
    throw new Error(
      `the store ${redactStore(config.store)} cannot be reached: ${(error as Error).message}${tlsHint(error, config.store)}`,
    )
  }
}
