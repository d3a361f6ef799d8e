import { deprecationClientBytes, deprecationOverflowBytes } from '../../../core/budget/costs.js'
import { luaBudget, luaFormat, luaJournal, luaKeep } from './lua-common.js'

/** The per-request controls' scripts: rate-limit windows, deprecation counters, the journal (ARGV[1]: the session's base). */

/**
 * Counts a request of an API key against its window (ARGV: base, key, real
 * now, most keys tracked, prefix, the window's cost), on the session's clock:
 * { allowed 1/0, remaining, reset seconds, limit, window seconds }, or nil
 * without a limit. Windows are `start,count` in a hash; recency of keys in a
 * sorted set, the least recent forgotten beyond the cap, as in memory. A new
 * key's window is counted in the budget (never refused: luaBudget's
 * budgetNote), unless it takes the place of the least recent one.
 */
export const hitRateLimitScript = `${luaFormat}${luaKeep}${luaBudget}
local b, key = ARGV[1], ARGV[2]
local m = b .. 'm'
local meta = redis.call('HMGET', m, 'rl', 'cm', 'cv')
if not meta[1] then return false end
local limit, win = string.match(meta[1], '^(%d+),(%d+)$')
limit, win = tonumber(limit), tonumber(win)
local now = tonumber(ARGV[3])
if meta[2] == 'frozen' then now = tonumber(meta[3]) elseif meta[2] == 'offset' then now = now + tonumber(meta[3]) end
local windowMs = win * 1000
local start, count
local stored = redis.call('HGET', b .. 'w', key)
if stored then
  local s, c = string.match(stored, '^([^,]+),([^,]+)$')
  start, count = tonumber(s), tonumber(c)
end
if not stored or now >= start + windowMs or now < start then start, count = now, 0 end
redis.call('ZADD', b .. 'wo', redis.call('HINCRBY', m, 'wseq', 1), key)
if redis.call('ZCARD', b .. 'wo') > tonumber(ARGV[4]) then
  local oldest = redis.call('ZPOPMIN', b .. 'wo')
  redis.call('HDEL', b .. 'w', oldest[1])
elseif not stored then
  budgetNote(ARGV[5], b, 'rateLimits', 'bw', tonumber(ARGV[6]))
end
local reset = math.max(1, math.ceil((start + windowMs - now) / 1000))
local allowed = 0
if count < limit then
  count = count + 1
  allowed = 1
end
redis.call('HSET', b .. 'w', key, fmt(start) .. ',' .. fmt(count))
-- A key seen for the first time may have made the hashes: they take the session's TTL.
if not stored then keep(b, 'w'); keep(b, 'wo') end
local remaining = 0
if allowed == 1 then remaining = limit - count end
return { allowed, remaining, reset, limit, win }
`

/** A new rate limit (ARGV: base, `limit,window` or '' for none, prefix) with every window fresh (their bytes given back). */
export const setRateLimitScript = `${luaBudget}
local b = ARGV[1]
if ARGV[2] == '' then redis.call('HDEL', b .. 'm', 'rl') else redis.call('HSET', b .. 'm', 'rl', ARGV[2]) end
redis.call('DEL', b .. 'w', b .. 'wo')
budgetRelease(ARGV[3], b, 'rateLimits', 'bw')
return 1
`

/** The rate limit as it stands (ARGV: base): { policy or nil, keys tracked }. */
export const rateLimitStateScript = `
local b = ARGV[1]
return { redis.call('HGET', b .. 'm', 'rl'), redis.call('HLEN', b .. 'w') }
`

/**
 * Counting a call of a deprecated operation: `note(P, d, op, key, now, most
 * clients)` answers 'client' for a client's first call, 'overflow' for the
 * first call beyond the cap, else false. Counters are `calls,first,last[,order]`
 * in the hash `d`: `op\nt` (all), `op\no` (beyond the cap), `op\nn` (clients),
 * `op\nc\n<key>` (one client). A new record is counted in the budget (never
 * refused), as in memory (costs.ts). Needs luaFormat, luaKeep and luaBudget.
 */
const luaNote = `
local function note(P, d, op, key, now, maxClients)
  -- A counter's next value: one more call, the first kept, the last now, the rest (order) kept.
  local function bumped(v)
    if not v then return '1,' .. now .. ',' .. now end
    local calls, first, _, rest = string.match(v, '^(%d+),([^,]+),([^,]+)(.*)$')
    return fmt(tonumber(calls) + 1) .. ',' .. first .. ',' .. now .. rest
  end
  local total, field, count = op .. '\\nt', op .. '\\nc\\n' .. key, op .. '\\nn'
  -- One read and one write on the common path (a client seen before).
  local got = redis.call('HMGET', d, total, field, count)
  if got[2] then
    redis.call('HSET', d, total, bumped(got[1]), field, bumped(got[2]))
    return false
  end
  local clients = tonumber(got[3] or '0')
  if clients < maxClients then
    redis.call('HSET', d, total, bumped(got[1]), field, '1,' .. now .. ',' .. now .. ',' .. fmt(clients), count, fmt(clients + 1))
    -- A new client (rare): the hash may be new, and takes the session's TTL.
    keep(string.sub(d, 1, -2), 'd')
    budgetNote(P, string.sub(d, 1, -2), 'deprecations', 'bd', ${deprecationClientBytes})
    return 'client'
  end
  local other = op .. '\\no'
  local was = redis.call('HGET', d, other)
  redis.call('HSET', d, total, bumped(got[1]), other, bumped(was))
  if not was then
    budgetNote(P, string.sub(d, 1, -2), 'deprecations', 'bd', ${deprecationOverflowBytes})
    return 'overflow'
  end
  return false
end
`

/** Counts a call of a deprecated operation (ARGV: base, operation, client key, now, most clients, prefix): see luaNote. */
export const noteDeprecatedScript = `${luaFormat}${luaKeep}${luaBudget}${luaNote}
return note(ARGV[6], ARGV[1] .. 'd', ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5]))
`

/**
 * Recording a request: `record(b, tail, size, P, cost, share)` stores the entry
 * (`{"id":N` then `tail`, the JSON after the id) under the next id, charged
 * `cost` (journal.ts recordBytes) to the journal's share (`share` bytes, < 0:
 * none) in the same change (luaJournal): the oldest beyond the size, then the
 * oldest of any session beyond the share, are dropped (counted in `jd`). It is
 * published to every replica's subscribers (`<prefix>:ev:<name>`); answers the id.
 */
const luaRecord = `${luaJournal}
-- The journal (request headers and bodies) never outlives its session: its keys take the session's TTL when made.
local function record(b, tail, size, P, cost, share)
  local id = redis.call('INCR', b .. 'jn')
  if id == 1 then keep(b, 'jn') end
  local json = '{"id":' .. id .. tail
  if size > 0 then journalKeep(P, b, id, json, size, cost, share) else journalDropped(b) end
  redis.call('PUBLISH', P .. ':ev:' .. journalName(P, b), json)
  return id
end
`

/** Records a request (ARGV: base, the JSON after `"id":N`, journal size, prefix, its cost, the journal's share or -1): see luaRecord. */
export const recordScript = `${luaFormat}${luaKeep}${luaRecord}
return record(ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5], tonumber(ARGV[6]))
`

/**
 * Counts a deprecated call and records its request, one call (ARGV: those of
 * recordScript, then operation, client key, now, most clients): { id, what
 * note answers }.
 */
export const recordNotedScript = `${luaFormat}${luaKeep}${luaBudget}${luaRecord}${luaNote}
local first = note(ARGV[4], ARGV[1] .. 'd', ARGV[7], ARGV[8], ARGV[9], tonumber(ARGV[10]))
return { record(ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5], tonumber(ARGV[6])), first }
`

/** Empties a session's journal, its entries' bytes given back (ARGV: base, prefix); its ids go on. */
export const clearJournalScript = `${luaFormat}${luaKeep}${luaJournal}
journalRelease(ARGV[2], ARGV[1])
return 1
`
