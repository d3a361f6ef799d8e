import { createHash } from 'node:crypto'
import type { Redis } from 'ioredis'

/**
 * One fleet, one configuration (issues 28 and 41). Replicas on one Redis (one
 * store prefix) must agree on every option that changes an answer or a limit
 * (fleet-options.ts): otherwise the same request is answered differently by
 * each. The first replica stores its options in Redis as a record of named
 * fields (`<prefix>:config`, a hash: option name → JSON value, secrets as
 * digests); a replica whose options differ refuses to start (exit 2) with one
 * line per option that differs. `--reconfigure` makes a replica's options the
 * fleet's (an explicit step: sessions made before keep what they hold).
 *
 * 0.2.0 kept a fingerprint of fewer options in `<prefix>:fleet` (JSON). It is
 * still written, as 0.2.0 reads it, so that a 0.2.0 replica started during a
 * rolling upgrade (or a roll-back) is checked as before; and a fleet that has
 * only it is joined by comparing those options, the record then taking this
 * replica's values of the others. A field one side does not know is not a
 * difference: a version that adds an option has it set by its first replica.
 *
 * The Redis layout is versioned (`<prefix>:schema`): a replica refuses a
 * layout newer than its own (a mixed fleet mid-upgrade that went backwards),
 * and raises an older one only as far as its configuration needs: without
 * tenants layout 5 writes exactly 4's keys, so it leaves 4 for 0.2.0's
 * replicas to keep serving and starting beside it.
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

/**
 * The options 0.2.0 wrote in `<prefix>:fleet` (its whole fingerprint), each computed as it did
 * (fleet-options.ts): a replica of a later version compares these with a fleet 0.2.0 started, and
 * writes them there for 0.2.0 replicas that start later (docs/reference/compatibility.md).
 */
export const legacyFleetKeys = [
  'pets',
  'faults',
  'delay',
  'seed',
  'max-pets',
  'max-sessions',
  'journal-size',
  'session-ttl',
  'limit-range',
  'default-status',
  'categories',
  'unknown-fields',
  'clock',
  'rate-limit',
] as const

/** The layout a configuration without tenants writes: 4's keys exactly (0.2.0 reads and writes it too). */
export const baseSchemaVersion = 4

/** What changes a replica's answers or limits: the options every replica of a fleet must share, by name. */
export type FleetOptions = Record<string, string | number | boolean | null>

/** A replica that may not join the fleet: a line per difference, the process exits 2 (cli/exit-codes.ts). */
export class FleetMismatch extends Error {
  override name = 'FleetMismatch'
}

/** The fingerprint of a fleet's options: sha256 of their canonical JSON, 16 hex digits (0.2.0's `<prefix>:fleet`). */
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

/**
 * The options that differ, one line each: `name: this replica's X, the fleet's Y`. Only the
 * options both know are compared (an option a newer version adds is not a difference).
 */
export const fleetDifferences = (mine: FleetOptions, fleet: FleetOptions): string[] =>
  Object.keys(mine)
    .filter((key) => key in fleet)
    .sort()
    .filter((key) => JSON.stringify(mine[key] ?? null) !== JSON.stringify(fleet[key] ?? null))
    .map((key) => `${key}: this replica's ${shown(mine[key])}, the fleet's ${shown(fleet[key])}`)

/** The options 0.2.0 fingerprinted, as it stored them (`{ fingerprint, options }` in `<prefix>:fleet`). */
export const legacyFleetRecord = (options: FleetOptions): string => {
  const legacy = Object.fromEntries(legacyFleetKeys.filter((key) => key in options).map((key) => [key, options[key]!]))
  return JSON.stringify({ fingerprint: fleetFingerprint(legacy), options: legacy })
}

// One step, atomic: ARGV[1] `join` answers the fleet's record when there is one, else 0.2.0's
// fingerprint when there is one, else writes both (this replica's); `adopt` writes the record unless
// one appeared meanwhile (0.2.0's fingerprint kept); `reconfigure` replaces both. When the record's
// fields agree with this replica's, those it lacks are added (HSETNX). Answers: `new`, or `fleet`
// (`replaced` for `reconfigure`) and the record's fields and values as they were, or `legacy` and
// 0.2.0's JSON.
const joinScript = `
local record, legacy, mode = KEYS[1], KEYS[2], ARGV[1]
local function write()
  for i = 3, #ARGV, 2 do redis.call('HSET', record, ARGV[i], ARGV[i + 1]) end
end
if mode == 'reconfigure' then
  local answer = {'replaced'}
  for _, v in ipairs(redis.call('HGETALL', record)) do answer[#answer + 1] = v end
  redis.call('DEL', record)
  write()
  redis.call('SET', legacy, ARGV[2])
  return answer
end
if redis.call('EXISTS', record) == 1 then
  local fields = redis.call('HGETALL', record)
  local agree = true
  for i = 3, #ARGV, 2 do
    local theirs = redis.call('HGET', record, ARGV[i])
    if theirs and theirs ~= ARGV[i + 1] then agree = false end
  end
  -- A replica that will be refused adds nothing.
  if agree then
    for i = 3, #ARGV, 2 do redis.call('HSETNX', record, ARGV[i], ARGV[i + 1]) end
  end
  local answer = {'fleet'}
  for _, v in ipairs(fields) do answer[#answer + 1] = v end
  return answer
end
if mode == 'join' then
  local old = redis.call('GET', legacy)
  if old then return {'legacy', old} end
  redis.call('SET', legacy, ARGV[2], 'NX')
end
write()
return {'new'}
`

const mismatch = (prefix: string, differences: string[]): FleetMismatch =>
  new FleetMismatch(
    [
      `this replica's configuration differs from the fleet's in Redis (prefix ${prefix}), option by option:`,
      ...differences.map((line) => `  ${line}`),
      `Start it with the fleet's options, or with --reconfigure to make its own the fleet's.`,
    ].join('\n'),
  )

const recordOf = (reply: readonly string[]): FleetOptions => {
  const fleet: FleetOptions = {}
  for (let i = 0; i + 1 < reply.length; i += 2) fleet[reply[i]!] = JSON.parse(reply[i + 1]!) as FleetOptions[string]
  return fleet
}

/**
 * Checks (or writes) the fleet's configuration at `prefix` (see above); throws
 * {@link FleetMismatch} naming each difference. Answers the banner's lines about what it changed
 * (a reconfiguration, a 0.2.0 fleet joined, options the record lacked), none when it changed nothing.
 */
const joinConfiguration = async (
  client: Redis,
  prefix: string,
  options: FleetOptions,
  reconfigure: boolean,
): Promise<string[]> => {
  const fields = Object.entries(options).flatMap(([key, value]) => [key, JSON.stringify(value)])
  const legacy = legacyFleetRecord(options)
  const run = (mode: string) =>
    client.eval(joinScript, 2, `${prefix}:config`, `${prefix}:fleet`, mode, legacy, ...fields) as Promise<string[]>
  const [outcome, ...reply] = await run(reconfigure ? 'reconfigure' : 'join')
  if (outcome === 'replaced') {
    const changed = fleetDifferences(options, recordOf(reply)).map((line) => line.slice(0, line.indexOf(':')))
    return reply.length === 0
      ? []
      : [
          `  fleet: --reconfigure made this replica's options the fleet's (${changed.length === 0 ? 'none changed' : `changed: ${changed.join(', ')}`}); restart the other replicas with them`,
        ]
  }
  if (outcome === 'legacy') {
    const fleet = (JSON.parse(reply[0]!) as { options?: FleetOptions }).options ?? {}
    const differences = fleetDifferences(options, fleet)
    if (differences.length > 0) throw mismatch(prefix, differences)
    const [adopted, ...record] = await run('adopt')
    if (adopted === 'new') {
      return [
        `  fleet: joined a fleet 0.2.0 started (the options it recorded agree); the others are now this replica's: start every replica with them`,
      ]
    }
    return checkRecord(prefix, options, recordOf(record))
  }
  return outcome === 'fleet' ? checkRecord(prefix, options, recordOf(reply)) : []
}

// A record found: a difference refuses the start; what it lacked was added from this replica.
const checkRecord = (prefix: string, options: FleetOptions, fleet: FleetOptions): string[] => {
  const differences = fleetDifferences(options, fleet)
  if (differences.length > 0) throw mismatch(prefix, differences)
  const added = Object.keys(options).filter((key) => !(key in fleet))
  return added.length === 0
    ? []
    : [`  fleet: options the fleet's record lacked, now this replica's: ${added.join(', ')}`]
}

/**
 * Checks (or writes) the layout version and the fleet's configuration at
 * `prefix`; throws {@link FleetMismatch} naming what differs; answers the banner's lines about it.
 */
export const joinFleet = async (
  client: Redis,
  prefix: string,
  options: FleetOptions,
  reconfigure: boolean,
): Promise<string[]> => {
  const schemaKey = `${prefix}:schema`
  const stored = await client.get(schemaKey)
  const version = stored === null ? null : Number(stored)
  if (version !== null && version > storeSchemaVersion) {
    throw new FleetMismatch(
      `the Redis layout at prefix ${prefix} is version ${version}, newer than this replica's ${storeSchemaVersion}: run the newer petstore-mock on this store (a fleet is upgraded forward only)`,
    )
  }
  const notes = await joinConfiguration(client, prefix, options, reconfigure)
  // Tenants' pools are layout 5's only keys: without them the layout stays 4, which 0.2.0 serves too.
  const needed =
    options['tenants'] === undefined || options['tenants'] === null ? baseSchemaVersion : storeSchemaVersion
  if (version !== null && version >= needed) return notes
  if (version === null || version < 2) {
    // Layout 1 scored the registry by a sequence: every session is taken as used now.
    const names = await client.zrange(`${prefix}:reg`, 0, '-1')
    if (names.length > 0) {
      const now = Date.now()
      await client.zadd(`${prefix}:reg`, ...names.flatMap((name) => [String(now), name]))
    }
  }
  await client.set(schemaKey, String(needed))
  return notes
}
