import { createHash } from 'node:crypto'
import type { Redis } from 'ioredis'

/**
 * One fleet, one configuration (issue 28). Replicas on one Redis (one store
 * prefix) must agree on what shapes data: otherwise each would make new
 * sessions from a world of its own. The options that shape data are stored in
 * Redis (`<prefix>:fleet`) by the first replica; a replica whose options
 * differ refuses to start with one line naming the difference. `--reconfigure`
 * makes a replica's options the fleet's (an explicit step: sessions made
 * before keep what they hold).
 *
 * The Redis layout is versioned (`<prefix>:schema`): a replica refuses a
 * layout newer than its own (a mixed fleet mid-upgrade that went backwards),
 * and brings an older one up to its own.
 */

/**
 * The layout this code reads and writes: 2 = the registry scored by last use in ms, tombstones, key
 * TTLs; 3 = the memory budget's counts (`<prefix>:mem`, `<prefix>:jz`, each entry's cost in `jc`);
 * 4 = each journal entry kept with its cost in front (`cost,{"id":…`), `jc` no longer written.
 * From 2 nothing is converted: entries kept before their costs were are dropped uncharged; from 3
 * neither: the costs of entries kept before are taken from `jc` as they leave (scripts/journal.lua).
 * 5 = tenants' pools (issue 39): a tenant's sessions charged in `<prefix>:q:<tenant>:mem` and
 * `:jz`, counted in `<prefix>:tn`, each naming its tenant in its meta (`q`); from 4 nothing is
 * converted (sessions made before are of no tenant's pool), and without tenants the keys are 4's.
 */
export const storeSchemaVersion = 5

/** What shapes a replica's data: the options every replica of a fleet must share. */
export type FleetOptions = Record<string, string | number | boolean | null>

/** A replica that may not join the fleet: one line, the process exits 1. */
export class FleetMismatch extends Error {
  override name = 'FleetMismatch'
}

/** The fingerprint of a fleet's options: sha256 of their canonical JSON, 16 hex digits. */
export const fleetFingerprint = (options: FleetOptions): string =>
  createHash('sha256')
    .update(
      JSON.stringify(
        Object.keys(options)
          .sort()
          .map((key) => [key, options[key]]),
      ),
    )
    .digest('hex')
    .slice(0, 16)

const shown = (value: unknown): string => (value === null || value === undefined ? 'none' : JSON.stringify(value))

/** The options that differ, as `name: this replica's vs the fleet's`. */
export const fleetDifferences = (mine: FleetOptions, fleet: FleetOptions): string[] =>
  [...new Set([...Object.keys(mine), ...Object.keys(fleet)])]
    .sort()
    .filter((key) => JSON.stringify(mine[key] ?? null) !== JSON.stringify(fleet[key] ?? null))
    .map((key) => `${key} ${shown(mine[key])} (the fleet's: ${shown(fleet[key])})`)

/**
 * Checks (or writes) the layout version and the fleet's configuration at
 * `prefix`; throws {@link FleetMismatch} naming what differs. Atomic enough:
 * the first write is SET NX, so two first replicas agree on one.
 */
export const joinFleet = async (
  client: Redis,
  prefix: string,
  options: FleetOptions,
  reconfigure: boolean,
): Promise<void> => {
  const schemaKey = `${prefix}:schema`
  const stored = await client.get(schemaKey)
  const version = stored === null ? null : Number(stored)
  if (version !== null && version > storeSchemaVersion) {
    throw new FleetMismatch(
      `the Redis layout at prefix ${prefix} is version ${version}, newer than this replica's ${storeSchemaVersion}: run the newer petstore-mock on this store (a fleet is upgraded forward only)`,
    )
  }
  if (version === null || version < storeSchemaVersion) {
    // Layout 1 scored the registry by a sequence: every session is taken as used now.
    const names = await client.zrange(`${prefix}:reg`, 0, '-1')
    if (names.length > 0) {
      const now = Date.now()
      await client.zadd(`${prefix}:reg`, ...names.flatMap((name) => [String(now), name]))
    }
    await client.set(schemaKey, String(storeSchemaVersion))
  }
  const fleetKey = `${prefix}:fleet`
  const mine = JSON.stringify({ fingerprint: fleetFingerprint(options), options })
  if (reconfigure) return void (await client.set(fleetKey, mine))
  if ((await client.set(fleetKey, mine, 'NX')) === 'OK') return
  const fleet = JSON.parse((await client.get(fleetKey)) ?? mine) as { fingerprint: string; options: FleetOptions }
  if (fleet.fingerprint === fleetFingerprint(options)) return
  throw new FleetMismatch(
    `this replica's configuration differs from the fleet's in Redis (prefix ${prefix}): ${fleetDifferences(options, fleet.options).join('; ')}. Start it with the fleet's options, or with --reconfigure to make its own the fleet's.`,
  )
}
