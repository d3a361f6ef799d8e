import { createHash } from 'node:crypto'
import {
  deprecationClientBytes,
  deprecationOverflowBytes,
  ruleBytes,
  sessionBytes,
} from '../../../core/budget/costs.js'
import { maxTombstones } from '../../../core/sessions/tombstones.js'
import { redisScripts } from '../../../generated/redis-scripts.js'

/**
 * The Redis store's Lua as one program. Each feature keeps its scripts in one file of `scripts/`
 * (pets.lua, faults.lua, journal.lua…: a feature's change touches one file per store), turned into
 * a module by `npm run generate` (src/generated/redis-scripts.ts), so the build, the bundle and the
 * image carry them with no file to read at run time. Keys are built inside the scripts from a
 * session's base (`<prefix>:s:<name>:`), so the store runs on a single Redis or Valkey, not on
 * Redis Cluster.
 */

/** The keys of a session's world: what a reset copies from the start template and a snapshot load replaces. */
export const worldSuffixes = [
  'm',
  'i',
  'i:available',
  'i:pending',
  'i:sold',
  'f',
  'fj',
  'fm',
  'fr',
  'fn',
  'fc',
] as const
/** Contract coverage: counters, kept interactions' keys and seeds, requests of those left out (coverage.lua). */
export const coverageSuffixes = ['cv', 'pk', 'pl', 'pn'] as const
/**
 * Besides the world: rate-limit windows, deprecation counters, the journal, its entries' costs, its id
 * counter and its drop count, coverage, timelines' phase counts.
 */
export const sessionSuffixes = [
  ...worldSuffixes,
  'w',
  'wo',
  'd',
  'j',
  'jc',
  'jn',
  'jd',
  ...coverageSuffixes,
  // Timelines' phase counts (faults.lua).
  'tc',
] as const
/** A session's pet indexes: what a staged write (a seed, a state or snapshot load in slices) switches at once. */
export const petSuffixes = ['i', 'i:available', 'i:pending', 'i:sold'] as const

/**
 * The files in the order they are defined: each uses the local functions of those before it
 * (common: numbers and TTLs; random: the seeded generator; budget; world: the key layout).
 */
export const scriptFiles = [
  'common',
  'random',
  'budget',
  'world',
  'pets',
  'faults',
  'latency',
  'rate-limit',
  'deprecation',
  'journal',
  'coverage',
  'snapshot',
  'sessions',
  'staged',
] as const

const luaList = (items: readonly string[]): string => `{${items.map((s) => `'${s}'`).join(', ')}}`

/** What the Lua takes from TypeScript: the memory store's costs and bounds, the key layout. */
const constants = `
local S = {}
local RULE_BYTES, SESSION_BYTES = ${ruleBytes}, ${sessionBytes}
local DEPRECATION_CLIENT_BYTES, DEPRECATION_OVERFLOW_BYTES = ${deprecationClientBytes}, ${deprecationOverflowBytes}
local MAX_TOMBSTONES = ${maxTombstones}
local WORLD_SUFFIXES = ${luaList(worldSuffixes)}
local SESSION_SUFFIXES = ${luaList(sessionSuffixes)}
local PET_SUFFIXES = ${luaList(petSuffixes)}
`

/**
 * Every script as a function of `S` (S.psGetPet…), the helpers defined once, and `batch`, which runs
 * a batch of calls (ARGV: name, number of arguments, the arguments; again for the next) in order,
 * each under pcall so that one call's error is its own: answers `1, reply` or `0, message` per
 * call, in one flat array.
 */
const program = `${constants}
${scriptFiles
  .map((name) => {
    const text = redisScripts[name]
    if (text === undefined) throw new Error(`src/node/store/redis/scripts/${name}.lua is missing`)
    return `-- ${name}.lua\n${text}`
  })
  .join('\n')}
local function batch(ARGV)
  local out, i, n = {}, 1, 0
  while i <= #ARGV do
    local fn, argc = S[ARGV[i]], tonumber(ARGV[i + 1])
    local args = {}
    for k = 1, argc do args[k] = ARGV[i + 1 + k] end
    i = i + 2 + argc
    n = n + 1
    local ok, reply = pcall(fn, args)
    if ok then
      if reply == nil then reply = false end
      out[2 * n - 1], out[2 * n] = 1, reply
    else
      if type(reply) == 'table' then reply = reply.err or 'script error' end
      out[2 * n - 1], out[2 * n] = 0, tostring(reply)
    end
  end
  return out
end
`

/** The program as a script (EVAL/EVALSHA): everything above is made again on each run. */
export const batchScript = `${program}return batch(ARGV)\n`

const version = createHash('sha1').update(batchScript).digest('hex').slice(0, 12)

/** The name of the program's function in Redis (FCALL): one per version of the program, so replicas of two versions never replace each other's. */
export const batchFunction = `petstore_batch_${version}`

/**
 * The program as a Redis function library (FUNCTION LOAD, Redis 7): its helpers and scripts are
 * made once, when it is loaded, not on each call, which spares each batch ~11 µs of Redis' CPU
 * (about 100 closures made again per EVALSHA; measured with INFO cpu).
 */
export const batchLibrary = `#!lua name=petstore_${version}
${program}redis.register_function('${batchFunction}', function(_, args) return batch(args) end)
`
