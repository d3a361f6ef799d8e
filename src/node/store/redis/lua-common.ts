/**
 * Lua shared by the store's scripts (prepended to those that use it). Keys are
 * built inside the scripts from a session's base (`<prefix>:s:<name>:`), so
 * the store runs on a single Redis or Valkey, not on Redis Cluster.
 */

/** Numbers as Redis and JSON take them: integers without exponent (ids up to 2^53). */
export const luaFormat = `
local function fmt(n) return string.format('%.0f', n) end
`

/**
 * The session's seeded generator in Lua: xoroshiro128+ and pure-rand's
 * uniformFloat64 and uniformInt, word for word (LuaBitOp's 32-bit operations
 * are JavaScript's), on the position the meta hash keeps (`rnd`: the four
 * int32 words of RandomState). Both stores therefore draw the same sequence
 * from the same position: a snapshot replays alike on either, and every
 * replica draws from the one position in Redis.
 */
export const luaDraw = `
local function rngLoad(m)
  local r = {}
  for word in string.gmatch(redis.call('HGET', m, 'rnd'), '[^,]+') do r[#r + 1] = tonumber(word) end
  return r
end
local function rngSave(m, r)
  redis.call('HSET', m, 'rnd', string.format('%d,%d,%d,%d', r[1], r[2], r[3], r[4]))
end
-- r = { s01, s00, s11, s10 }, as pure-rand's getState
local function rngNext(r)
  local s01, s00, s11, s10 = r[1], r[2], r[3], r[4]
  local out = bit.tobit(s00 + s10)
  local a0 = bit.bxor(s10, s00)
  local a1 = bit.bxor(s11, s01)
  r[2] = bit.bxor(bit.lshift(s00, 24), bit.rshift(s01, 8), a0, bit.lshift(a0, 16))
  r[1] = bit.bxor(bit.lshift(s01, 24), bit.rshift(s00, 8), a1, bit.bor(bit.lshift(a1, 16), bit.rshift(a0, 16)))
  r[4] = bit.bxor(bit.lshift(a1, 5), bit.rshift(a0, 27))
  r[3] = bit.bxor(bit.lshift(a0, 5), bit.rshift(a1, 27))
  return out
end
local function rngFloat(r)
  local v1 = bit.band(rngNext(r), 67108863)
  local v2 = bit.band(rngNext(r), 134217727)
  return v1 * 1.4901161193847656e-8 + v2 * 1.1102230246251565e-16
end
local function rngInt(r, from, to)
  local size = to - from + 1
  local allowed = 4294967296
  if size > 2 then allowed = math.floor(4294967296 / size) * size end
  local v = rngNext(r) + 2147483648
  while v >= allowed do v = rngNext(r) + 2147483648 end
  return v % size + from
end
`

/** The keys of a session's world: what a reset copies from the start template and a snapshot load replaces. */
export const worldSuffixes = ['m', 'i', 'i:available', 'i:pending', 'i:sold', 'f', 'fj', 'fm', 'fr', 'fn'] as const
/** Contract coverage: counters, kept interactions' keys and seeds, requests of those left out (scripts-coverage.ts). */
export const coverageSuffixes = ['cv', 'pk', 'pl', 'pn'] as const
/**
 * Besides the world: rate-limit windows, deprecation counters, the journal, its entries' costs, its id
 * counter and its drop count, coverage.
 */
export const sessionSuffixes = [...worldSuffixes, 'w', 'wo', 'd', 'j', 'jc', 'jn', 'jd', ...coverageSuffixes] as const

/** A session's pet indexes: what a staged write (a seed, a state or snapshot load in slices) switches at once. */
export const petSuffixes = ['i', 'i:available', 'i:pending', 'i:sold'] as const

const luaList = (items: readonly string[]): string => `{${items.map((s) => `'${s}'`).join(', ')}}`

/** Copying a world from one base to another (COPY … REPLACE), and dropping a session's keys. */
export const luaWorld = `
local WORLD = ${luaList(worldSuffixes)}
local ALL = ${luaList(sessionSuffixes)}
local PETS = ${luaList(petSuffixes)}
-- UNLINK, not DEL: a world of 100,000 pets is let go of by Redis' background thread, not inside the script.
local function copyWorld(from, to)
  for _, s in ipairs(WORLD) do
    redis.call('UNLINK', to .. s)
    if redis.call('EXISTS', from .. s) == 1 then redis.call('COPY', from .. s, to .. s) end
  end
end
local function dropKeys(b)
  for _, s in ipairs(ALL) do redis.call('UNLINK', b .. s) end
end
local function zaddChunks(key, items)
  for i = 1, #items, 1000 do
    redis.call('ZADD', key, unpack(items, i, math.min(i + 999, #items)))
  end
end
local function hsetChunks(key, items)
  for i = 1, #items, 1000 do
    redis.call('HSET', key, unpack(items, i, math.min(i + 999, #items)))
  end
end
-- w: { meta = {field, value, …}, pets = {{id, status, json}, …}, faults = {{id, json, match, remaining, name}, …} }
local function writeWorld(b, w)
  for _, s in ipairs(WORLD) do redis.call('UNLINK', b .. s) end
  redis.call('HSET', b .. 'm', unpack(w.meta))
  local all, by = {}, { available = {}, pending = {}, sold = {} }
  for _, p in ipairs(w.pets) do
    all[#all + 1] = p[1]
    all[#all + 1] = p[3]
    local list = by[p[2]]
    if list then
      list[#list + 1] = p[1]
      list[#list + 1] = p[3]
    end
  end
  if #all > 0 then zaddChunks(b .. 'i', all) end
  for status, list in pairs(by) do
    if #list > 0 then zaddChunks(b .. 'i:' .. status, list) end
  end
  local ids, fj, fm, fr, fn = {}, {}, {}, {}, {}
  for _, f in ipairs(w.faults) do
    ids[#ids + 1] = f[1]
    fj[#fj + 1] = f[1]; fj[#fj + 1] = f[2]
    fm[#fm + 1] = f[1]; fm[#fm + 1] = f[3]
    if f[4] ~= '' then fr[#fr + 1] = f[1]; fr[#fr + 1] = f[4] end
    if f[5] ~= '' then
      fn[#fn + 1] = 'n:' .. f[5]; fn[#fn + 1] = f[1]
      fn[#fn + 1] = 'i:' .. f[1]; fn[#fn + 1] = f[5]
    end
  end
  for i = 1, #ids, 1000 do redis.call('RPUSH', b .. 'f', unpack(ids, i, math.min(i + 999, #ids))) end
  if #fj > 0 then hsetChunks(b .. 'fj', fj); hsetChunks(b .. 'fm', fm) end
  if #fr > 0 then hsetChunks(b .. 'fr', fr) end
  if #fn > 0 then hsetChunks(b .. 'fn', fn) end
end
-- What a request reads of its session up front, as one text (one string to decode, not six):
-- latency min and max, rate limit, clock mode and value, number of rules, '|' between, '' for none.
local function metaOf(b)
  local meta = redis.call('HMGET', b .. 'm', 'lmin', 'lmax', 'rl', 'cm', 'cv')
  for i = 1, 5 do meta[i] = meta[i] or '' end
  meta[6] = redis.call('LLEN', b .. 'f')
  return table.concat(meta, '|')
end
`

/** A key made now takes the session's TTL (its meta's), so nothing of an expiring session stays forever. */
export const luaKeep = `
local function keep(b, s)
  local ttl = redis.call('PTTL', b .. 'm')
  if ttl > 0 and redis.call('PTTL', b .. s) == -1 then redis.call('PEXPIRE', b .. s, ttl) end
end
`

/**
 * The memory budget's state share on the shared state (issue 29), charged and released in the
 * scripts that change what it counts, atomically with the change. `<prefix>:mem` holds what every
 * session of the prefix is charged, by part (`pets`, `rules`, `sessions`, `deprecations`,
 * `rateLimits`); a session's meta its own (`bp` pets, `br` rules, `bs` its own cost, `bd`
 * deprecation records, `bw` rate-limit windows, `bx` pets' bytes reserved by a staged write in
 * progress), so that a reset, a load or a drop gives back exactly what it held. The costs are the
 * memory store's (src/core/budget/costs.ts), reckoned by the caller. `limit` < 0: no budget. A
 * refusal is one text: `!part,needed,free,pets,rules,sessions,deprecations,rateLimits` (codec:
 * refusalOf).
 */
export const luaBudget = `
local BUDGET_PARTS = { 'pets', 'rules', 'sessions', 'deprecations', 'rateLimits' }
local function budgetUsed(P)
  local got = redis.call('HMGET', P .. ':mem', unpack(BUDGET_PARTS))
  local used = 0
  for i = 1, #BUDGET_PARTS do
    got[i] = tonumber(got[i] or '0')
    used = used + got[i]
  end
  return used, got
end
local function budgetRefusal(part, needed, limit, used, got)
  return string.format('!%s,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f', part, needed, math.max(0, limit - used), got[1], got[2], got[3], got[4], got[5])
end
-- Sets the session's charges (bp, br) to pets and rules bytes; or refuses a growth beyond limit, changing nothing.
local function budgetResize(P, b, pets, rules, limit, part)
  local had = redis.call('HMGET', b .. 'm', 'bp', 'br')
  local dp, dr = pets - tonumber(had[1] or '0'), rules - tonumber(had[2] or '0')
  local grow = math.max(0, dp) + math.max(0, dr)
  if grow > 0 and limit >= 0 then
    local used, got = budgetUsed(P)
    if used + dp + dr > limit then return budgetRefusal(part, grow, limit, used, got) end
  end
  redis.call('HSET', b .. 'm', 'bp', string.format('%.0f', pets), 'br', string.format('%.0f', rules))
  if dp ~= 0 then redis.call('HINCRBY', P .. ':mem', 'pets', dp) end
  if dr ~= 0 then redis.call('HINCRBY', P .. ':mem', 'rules', dr) end
  return false
end
-- Adds bytes to one charge of the session (a create, a rule), or refuses.
local function budgetGrow(P, b, part, bytes, limit)
  local had = redis.call('HMGET', b .. 'm', 'bp', 'br')
  local pets, rules = tonumber(had[1] or '0'), tonumber(had[2] or '0')
  if part == 'pets' then pets = pets + bytes else rules = rules + bytes end
  return budgetResize(P, b, pets, rules, limit, part)
end
-- Counts bytes never refused (what answering a read keeps: a rate-limit window, a deprecation record)
-- in the session's field and the shared part.
local function budgetNote(P, b, part, field, bytes)
  redis.call('HINCRBY', b .. 'm', field, bytes)
  redis.call('HINCRBY', P .. ':mem', part, bytes)
end
-- Gives back what the session's field holds of a part (its windows reset, its report cleared).
local function budgetRelease(P, b, part, field)
  local had = tonumber(redis.call('HGET', b .. 'm', field) or '0')
  if had ~= 0 then redis.call('HINCRBY', P .. ':mem', part, -had) end
  redis.call('HDEL', b .. 'm', field)
end
-- Reserves what a staged write of pets and rules bytes would add (bx), or refuses as budgetResize
-- would, changing nothing: nobody else can take the room while its slices are written. Answers
-- false and the bytes reserved, or the refusal.
local function budgetReserve(P, b, pets, rules, limit)
  local had = redis.call('HMGET', b .. 'm', 'bp', 'br')
  local dp, dr = pets - tonumber(had[1] or '0'), rules - tonumber(had[2] or '0')
  local grow = math.max(0, dp) + math.max(0, dr)
  if grow > 0 and limit >= 0 then
    local used, got = budgetUsed(P)
    if used + dp + dr > limit then return budgetRefusal('pets', grow, limit, used, got), 0 end
  end
  local reserve = math.max(0, dp + dr)
  if reserve > 0 then budgetNote(P, b, 'pets', 'bx', reserve) end
  return false, reserve
end
-- Gives back a reservation (at most what the session still holds reserved: a drop gave it all back).
local function budgetUnreserve(P, b, reserved)
  local held = tonumber(redis.call('HGET', b .. 'm', 'bx') or '0')
  local back = math.min(held, reserved)
  if back > 0 then
    redis.call('HINCRBY', P .. ':mem', 'pets', -back)
    if held - back > 0 then redis.call('HSET', b .. 'm', 'bx', string.format('%.0f', held - back)) else redis.call('HDEL', b .. 'm', 'bx') end
  end
end
-- Gives back everything a session held (dropped): its charges, its reservations and its own cost.
local function budgetDrop(P, b, sessionBytes)
  local had = redis.call('HMGET', b .. 'm', 'bp', 'br', 'bd', 'bw', 'bx', 'bs')
  local parts = { 'pets', 'rules', 'deprecations', 'rateLimits', 'pets' }
  for i = 1, 5 do
    local bytes = tonumber(had[i] or '0')
    if bytes ~= 0 then redis.call('HINCRBY', P .. ':mem', parts[i], -bytes) end
  end
  if had[6] then redis.call('HINCRBY', P .. ':mem', 'sessions', -sessionBytes) end
end
`

/**
 * The journal's share of the budget on the shared state (issue 29): every kept entry of every
 * session of the prefix is charged its bytes (journal.ts recordBytes, reckoned by the caller) in
 * `<prefix>:mem` (`journal`), and listed in the sorted set `<prefix>:jz` in the order it was
 * charged (score: `<prefix>:mem` `jseq`; member: `cost,id,session`); a session's list `jc` holds
 * its entries' costs in the order of `j` (newest first). Entries of a session are kept with
 * consecutive ids (the newest is `jn`), and only its oldest ever leaves alone (its ring is full,
 * or the share drops it), so that the oldest member of `jz` is its session's oldest entry.
 * Needs luaFormat and luaKeep.
 */
export const luaJournal = `
local function journalName(P, b) return string.sub(b, #P + 4, -2) end
-- Gives back every entry of a session (cleared, reset, dropped) and empties its journal; its ids go on.
local function journalRelease(P, b)
  local costs = redis.call('LRANGE', b .. 'jc', 0, -1)
  if #costs > 0 then
    local newest = tonumber(redis.call('GET', b .. 'jn') or '0')
    local name = journalName(P, b)
    local total = 0
    for k, c in ipairs(costs) do
      redis.call('ZREM', P .. ':jz', c .. ',' .. fmt(newest - k + 1) .. ',' .. name)
      total = total + tonumber(c)
    end
    redis.call('HINCRBY', P .. ':mem', 'journal', -total)
  end
  redis.call('UNLINK', b .. 'j', b .. 'jc')
end
-- Counts an entry dropped to make room (the journal's drop count, as in memory).
local function journalDropped(b)
  if redis.call('INCR', b .. 'jd') == 1 then keep(b, 'jd') end
end
-- Drops the oldest entries of any session of the prefix until the share holds used bytes, keeping
-- the entry just charged (member) even alone beyond it, as in memory. Answers what is then used.
local function journalMakeRoom(P, used, share, member)
  while used > share do
    local oldest = redis.call('ZRANGE', P .. ':jz', 0, 0)[1]
    if not oldest or oldest == member then break end
    redis.call('ZREMRANGEBYRANK', P .. ':jz', 0, 0)
    local c, id, name = string.match(oldest, '^(%d+),(%d+),(.*)$')
    local ob = P .. ':s:' .. name .. ':'
    local n = redis.call('LLEN', ob .. 'j')
    -- Its session's oldest entry (unless its keys expired with it): dropped, and counted.
    if n > 0 and tonumber(redis.call('GET', ob .. 'jn') or '0') - n + 1 == tonumber(id) then
      redis.call('LTRIM', ob .. 'j', 0, -2)
      redis.call('LTRIM', ob .. 'jc', 0, -2)
      journalDropped(ob)
    end
    used = redis.call('HINCRBY', P .. ':mem', 'journal', -tonumber(c))
  end
  return used
end
-- Keeps a new entry (id, json) of the session whose ring holds size (> 0) entries, charged cost
-- (a decimal text) against the share (< 0: none): the ring's oldest goes when full, then the oldest
-- entries of any session while the share is passed.
local function journalKeep(P, b, id, json, size, cost, share)
  local length = redis.call('LPUSH', b .. 'j', json)
  if length == 1 then keep(b, 'j') end
  local name = journalName(P, b)
  local member = cost .. ',' .. fmt(id) .. ',' .. name
  redis.call('ZADD', P .. ':jz', redis.call('HINCRBY', P .. ':mem', 'jseq', 1), member)
  if redis.call('LPUSH', b .. 'jc', cost) == 1 then keep(b, 'jc') end
  local used = redis.call('HINCRBY', P .. ':mem', 'journal', tonumber(cost))
  if length > size then
    -- The ring's oldest (ids are consecutive): their charges go back.
    local costs = redis.call('LRANGE', b .. 'jc', size, -1)
    for k, c in ipairs(costs) do
      redis.call('ZREM', P .. ':jz', c .. ',' .. fmt(id - size - k + 1) .. ',' .. name)
      used = redis.call('HINCRBY', P .. ':mem', 'journal', -tonumber(c))
      journalDropped(b)
    end
    -- Entries kept before their costs were (an older version): dropped, uncharged.
    for _ = #costs + 1, length - size do journalDropped(b) end
    redis.call('LTRIM', b .. 'j', 0, size - 1)
    redis.call('LTRIM', b .. 'jc', 0, size - 1)
  end
  if share >= 0 then journalMakeRoom(P, used, share, member) end
end
`
