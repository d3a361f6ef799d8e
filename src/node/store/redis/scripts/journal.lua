-- The journal's share of the budget on the shared state (issue 29): every kept entry of every
-- session of the prefix is charged its bytes (journal.ts recordBytes, reckoned by the caller) in
-- `<prefix>:mem` (`journal`), and listed in the sorted set `<prefix>:jz` in the order it was
-- charged (score: `<prefix>:mem` `jseq`; member: `cost,id,session`); a session's list `jc` holds
-- its entries' costs in the order of `j` (newest first). Entries of a session are kept with
-- consecutive ids (the newest is `jn`), and only its oldest ever leaves alone (its ring is full,
-- or the share drops it), so that the oldest member of `jz` is its session's oldest entry.
-- Needs luaFormat and luaKeep.
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

-- Recording a request: `record(b, tail, size, P, cost, share)` stores the entry
-- (`{"id":N` then `tail`, the JSON after the id) under the next id, charged
-- `cost` (journal.ts recordBytes) to the journal's share (`share` bytes, < 0:
-- none) in the same change (luaJournal): the oldest beyond the size, then the
-- oldest of any session beyond the share, are dropped (counted in `jd`). It is
-- published to every replica's subscribers (`<prefix>:ev:<name>`); answers the id.
-- The journal (request headers and bodies) never outlives its session: its keys take the session's TTL when made.
local function record(b, tail, size, P, cost, share)
  local id = redis.call('INCR', b .. 'jn')
  if id == 1 then keep(b, 'jn') end
  local json = '{"id":' .. id .. tail
  if size > 0 then journalKeep(P, b, id, json, size, cost, share) else journalDropped(b) end
  redis.call('PUBLISH', P .. ':ev:' .. journalName(P, b), json)
  return id
end

-- Records a request (ARGV: base, the JSON after `"id":N`, journal size, prefix, its cost, the journal's share or -1): see luaRecord.
S.psRecord = function(ARGV)
  return record(ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5], tonumber(ARGV[6]))
end

-- Counts a deprecated call and records its request, one call (ARGV: those of
-- recordScript, then operation, client key, now, most clients): { id, what
-- note answers }.
S.psRecordNoted = function(ARGV)
  local first = note(ARGV[4], ARGV[1] .. 'd', ARGV[7], ARGV[8], ARGV[9], tonumber(ARGV[10]))
  return { record(ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5], tonumber(ARGV[6])), first }
end

-- Empties a session's journal, its entries' bytes given back (ARGV: base, prefix); its ids go on.
S.psClearJournal = function(ARGV)
  journalRelease(ARGV[2], ARGV[1])
  return 1
end
