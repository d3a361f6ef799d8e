import type { SessionStore } from '../../core/sessions/port.js'
import type { StartState } from '../../core/sessions/memory-store.js'
import type { Config } from '../config/config.js'
import { redactStore } from './store-option.js'
import type { FleetOptions } from './redis/fleet-fingerprint.js'

/** --store redis://… on an install without the optional client: exit 2, one line. */
export class StoreClientMissing extends Error {
  override name = 'StoreClientMissing'
}

/** A store the app is built on, what resolves once it can serve, and why it cannot take writes now (readiness). */
export type StoreFactory = ((
  start: StartState,
  maxSessions: number,
) => SessionStore & { ready: Promise<void>; refusesWrites?(): Promise<string | undefined> }) & {
  /** The banner's lines about the fleet's configuration in Redis (a reconfiguration, an upgrade). */
  readonly fleetNotes?: readonly string[]
}

const isMissingClient = (error: unknown): boolean =>
  (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' && /ioredis/.test(String((error as Error).message))

/**
 * The store --store names: undefined for memory (the app's own, unchanged), or
 * the Redis store, connected. Its client is loaded only here, so that a
 * memory start loads none of it.
 */
export const openStore = async (
  config: Pick<Config, 'store' | 'storePrefix'>,
  fleet?: { options: FleetOptions; reconfigure: boolean },
): Promise<StoreFactory | undefined> => {
  if (config.store === 'memory') return undefined
  let redis: typeof import('./redis/redis-store.js')
  try {
    redis = await import('./redis/redis-store.js')
  } catch (error) {
    if (!isMissingClient(error)) throw error
    throw new StoreClientMissing(`--store ${redactStore(config.store)} needs the Redis client: npm install ioredis`)
  }
  try {
    return await redis.openRedisStore({ url: config.store, prefix: config.storePrefix, ...(fleet && { fleet }) })
  } catch (error) {
    if ((error as Error).name === 'FleetMismatch') throw error
    throw new Error(`the store ${redactStore(config.store)} cannot be reached: ${(error as Error).message}`)
  }
}
