import { sessionBytes } from '../../../core/budget/costs.js'
import { luaBudget, luaWorld } from './lua-common.js'

/**
 * The session registry's scripts. ARGV[1] is the key prefix; the registry is
 * the sorted set `<prefix>:reg` (name → recency), its clock `<prefix>:regseq`.
 */

const luaDrop = `${luaBudget}
local function drop(P, name)
  budgetDrop(P, P .. ':s:' .. name .. ':', ${sessionBytes})
  dropKeys(P .. ':s:' .. name .. ':')
  redis.call('ZREM', P .. ':reg', name)
  -- An empty message ends the session's event streams on every replica.
  redis.call('PUBLISH', P .. ':ev:' .. name, '')
end
`

/**
 * Writes the start template once (ARGV: prefix, template base, world JSON) and
 * makes the default session from it when there is none, without touching the
 * recency of one that exists (state survives restarts).
 */
export const initScript = `${luaWorld}
local P, tpl = ARGV[1], ARGV[2]
if redis.call('EXISTS', tpl .. 'ready') == 0 then
  writeWorld(tpl, cjson.decode(ARGV[3]))
  redis.call('SET', tpl .. 'ready', '1')
end
local b = P .. ':s:default:'
if redis.call('EXISTS', b .. 'm') == 0 then copyWorld(tpl, b) end
if not redis.call('ZSCORE', P .. ':reg', 'default') then
  redis.call('ZADD', P .. ':reg', redis.call('INCR', P .. ':regseq'), 'default')
end
return 1
`

/**
 * Selects a session (ARGV: prefix, name, template base, most sessions): made
 * from the template when new, marked most recently used, and beyond the cap
 * the least recently used ones dropped (never the default, nor the one asked
 * for), all in one change. Answers what a request reads up front (metaOf),
 * then, after a NUL, the read named ahead (ARGV[5]: 'pet' with the id, 'list'
 * with the index's suffix and the limit, '' for none): the pet's JSON or ''
 * for none, or the page as one JSON array text. One string to decode.
 */
export const sessionScript = `${luaWorld}${luaDrop}
local P, name, tpl, max = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local reg = P .. ':reg'
local b = P .. ':s:' .. name .. ':'
local function answer()
  local meta = metaOf(b)
  if ARGV[5] == 'pet' then
    return meta .. '\\0' .. (redis.call('ZRANGE', b .. 'i', ARGV[6], ARGV[6], 'BYSCORE')[1] or '')
  elseif ARGV[5] == 'list' then
    return meta .. '\\0[' .. table.concat(redis.call('ZRANGE', b .. ARGV[6], 0, tonumber(ARGV[7]) - 1), ',') .. ']'
  end
  return meta
end
-- The most recent already (a client's requests, one after another): nothing to write, nothing to evict.
local latest = redis.call('ZRANGE', reg, -1, -1)
if latest[1] == name then return answer() end
if redis.call('EXISTS', b .. 'm') == 0 then
  copyWorld(tpl, b)
  -- A session's own cost (sessionBytes), counted, never refused: selecting one is a read.
  redis.call('HSET', b .. 'm', 'bs', '1')
  redis.call('HINCRBY', P .. ':mem', 'sessions', ${sessionBytes})
end
redis.call('ZADD', reg, redis.call('INCR', P .. ':regseq'), name)
local over = redis.call('ZCARD', reg) - max
if over > 0 then
  for _, victim in ipairs(redis.call('ZRANGE', reg, 0, over + 1)) do
    if over == 0 then break end
    if victim ~= 'default' and victim ~= name then
      drop(P, victim)
      over = over - 1
    end
  end
end
return answer()
`

/** What a request reads up front, for a session object made without it (listings). ARGV: base. */
export const metaScript = `${luaWorld}
return metaOf(ARGV[1])
`

/** Drops a session (ARGV: prefix, name): 0 for the default one or an unknown name. */
export const dropScript = `${luaWorld}${luaDrop}
local P, name = ARGV[1], ARGV[2]
if name == 'default' or not redis.call('ZSCORE', P .. ':reg', name) then return 0 end
drop(P, name)
return 1
`

/** What the budget's state share holds on this prefix (ARGV: prefix): pets, rules, sessions bytes. */
export const memoryScript = `
local got = redis.call('HMGET', ARGV[1] .. ':mem', 'pets', 'rules', 'sessions')
for i = 1, 3 do got[i] = got[i] or '0' end
return got
`

/** The default session's pets and the number of sessions (ARGV: prefix). */
export const statsScript = `
local P = ARGV[1]
return { redis.call('ZCARD', P .. ':s:default:i'), redis.call('ZCARD', P .. ':reg') }
`

/**
 * Back to the start (ARGV: base, template base, prefix): the world copied, journal emptied (its ids
 * go on), windows and counters gone; the start world is charged nothing.
 */
export const resetScript = `${luaWorld}${luaBudget}
local b = ARGV[1]
budgetResize(ARGV[3], b, 0, 0, -1, 'pets')
local bs = redis.call('HGET', b .. 'm', 'bs')
copyWorld(ARGV[2], b)
if bs then redis.call('HSET', b .. 'm', 'bs', bs) end
redis.call('DEL', b .. 'j', b .. 'w', b .. 'wo', b .. 'd')
return 1
`

/**
 * A snapshot load (ARGV: base, world JSON, prefix, its pets' cost, its rules' cost, the budget's
 * state share or -1): the world, clock and rate limit (in its meta) at once, windows fresh; the
 * journal stays. Answers 1, or a refusal of the budget (luaBudget), changing nothing.
 */
export const loadScript = `${luaWorld}${luaBudget}
local b = ARGV[1]
local pets, rules = tonumber(ARGV[4]), tonumber(ARGV[5])
local refused = budgetResize(ARGV[3], b, pets, rules, tonumber(ARGV[6]), 'pets')
if refused then return refused end
local bs = redis.call('HGET', b .. 'm', 'bs')
writeWorld(b, cjson.decode(ARGV[2]))
redis.call('HSET', b .. 'm', 'bp', string.format('%.0f', pets), 'br', string.format('%.0f', rules))
if bs then redis.call('HSET', b .. 'm', 'bs', bs) end
redis.call('DEL', b .. 'w', b .. 'wo')
return 1
`

/** Everything a snapshot saves, read at once (ARGV: base): meta, pets, rules. */
export const contentsScript = `
local b = ARGV[1]
local ids = redis.call('LRANGE', b .. 'f', 0, -1)
local rules = {}
for _, id in ipairs(ids) do
  rules[#rules + 1] = redis.call('HGET', b .. 'fj', id)
  rules[#rules + 1] = redis.call('HGET', b .. 'fr', id) or ''
end
return { redis.call('HGETALL', b .. 'm'), redis.call('ZRANGE', b .. 'i', 0, -1), rules }
`

/** Sizes for listings (ARGV: base). */
export const summaryScript = `
local b = ARGV[1]
return { redis.call('ZCARD', b .. 'i'), redis.call('LLEN', b .. 'f'), redis.call('LLEN', b .. 'j') }
`
