-- The journal's share of the budget on the shared state (issue 29): every kept entry of every
-- session of the prefix is charged its bytes (journal.ts recordBytes, reckoned by the caller) in
-- `<prefix>:mem` (`journal`), and listed in the sorted set `<prefix>:jz` in the order it was
-- charged (score: `<prefix>:mem` `jseq`; member: `cost,id,session`). A session's list `j` holds its
-- entries newest first, each as its cost, a comma, then its JSON (layout 4: the ring's oldest and
-- its cost leave in one RPOP); entries kept before (layout 3) are the JSON alone, their costs in
-- `jc` in the same order, taken from there as they leave. Entries of a session are kept with
-- consecutive ids (the newest is `jn`), and only its oldest ever leaves alone (its ring is full,
-- or the share drops it), so that the oldest member of `jz` is its session's oldest entry.
-- With tenants (issue 39) each pool has its own: a tenant's sessions are charged in `Pq:mem` and
-- listed in `Pq:jz` (Pq: the pool, luaBudget), so that its share drops only its own oldest entries.
local function journalName(P, b) return string.sub(b, #P + 4, -2) end
-- The cost of a stored entry that leaves the list `j` of the session b: in front of it, or (kept
-- before layout 4) the oldest in `jc`; nil for one kept before costs were (dropped uncharged).
local function leavingCost(b, stored)
  local c = string.match(stored, '^(%d+),')
  if c then return c end
  return redis.call('RPOP', b .. 'jc') or nil
end
-- Gives back every entry of a session (cleared, reset, dropped) and empties its journal; its ids go on.
local function journalRelease(P, Pq, b)
  local entries = redis.call('LRANGE', b .. 'j', 0, -1)
  if #entries > 0 then
    local legacy = redis.call('LRANGE', b .. 'jc', 0, -1)
    local newest = tonumber(redis.call('GET', b .. 'jn') or '0')
    local name = journalName(P, b)
    local total, l = 0, 0
    for k, stored in ipairs(entries) do
      local c = string.match(stored, '^(%d+),')
      if not c then
        l = l + 1
        c = legacy[l]
      end
      if c then
        redis.call('ZREM', Pq .. ':jz', c .. ',' .. fmt(newest - k + 1) .. ',' .. name)
        total = total + tonumber(c)
      end
    end
    redis.call('HINCRBY', Pq .. ':mem', 'journal', -total)
  end
  redis.call('UNLINK', b .. 'j', b .. 'jc')
end
-- Counts entries dropped to make room (the journal's drop count, as in memory).
local function journalDropped(b, n)
  if redis.call('INCRBY', b .. 'jd', n or 1) == (n or 1) then keep(b, 'jd') end
end
-- Drops the oldest entries of any session of the pool Pq until the share holds used bytes, keeping
-- the entry just charged (member) even alone beyond it, as in memory. Answers what is then used.
local function journalMakeRoom(P, Pq, used, share, member)
  while used > share do
    local oldest = redis.call('ZRANGE', Pq .. ':jz', 0, 0)[1]
    if not oldest or oldest == member then break end
    redis.call('ZREMRANGEBYRANK', Pq .. ':jz', 0, 0)
    local c, id, name = string.match(oldest, '^(%d+),(%d+),(.*)$')
    local ob = P .. ':s:' .. name .. ':'
    local n = redis.call('LLEN', ob .. 'j')
    -- Its session's oldest entry (unless its keys expired with it): dropped, and counted.
    if n > 0 and tonumber(redis.call('GET', ob .. 'jn') or '0') - n + 1 == tonumber(id) then
      leavingCost(ob, redis.call('RPOP', ob .. 'j'))
      journalDropped(ob)
    end
    used = redis.call('HINCRBY', Pq .. ':mem', 'journal', -tonumber(c))
  end
  return used
end
-- Keeps new entries of the session whose ring holds size (> 0) entries: `entries` is { tail, cost,
-- tail, cost, … } (tail: the JSON after `{"id":N`; cost: a decimal text), of the ids first, first +
-- 1, …, each charged its cost against the share (< 0: none). The ring's oldest go when it is full,
-- then the oldest entries of any session while the share is passed, keeping the newest entry: what
-- keeping them one after the other leaves. A full ring (the steady state) costs one RPOP for one
-- entry, and for a turn's entries an LRANGE and an LTRIM; one HINCRBY for what leaves and what comes.
local function journalKeep(P, Pq, b, first, entries, size, share)
  local n = #entries / 2
  local name = journalName(P, b)
  local seq = redis.call('HINCRBY', Pq .. ':mem', 'jseq', n)
  local stored, scored, change = {}, {}, 0
  for k = 1, n do
    local id, cost = first + k - 1, entries[2 * k]
    -- One concatenation: each new Lua string is hashed byte by byte, ~1.3 ns a byte (an entry is ~2 KB).
    stored[k] = cost .. ',{"id":' .. id .. entries[2 * k - 1]
    scored[2 * k - 1], scored[2 * k] = seq - n + k, cost .. ',' .. fmt(id) .. ',' .. name
    change = change + tonumber(cost)
  end
  -- Pushed oldest first: the newest is the list's head.
  local length = redis.call('LPUSH', b .. 'j', unpack(stored))
  if length == n then keep(b, 'j') end
  redis.call('ZADD', Pq .. ':jz', unpack(scored))
  if length > size then
    -- The ring's oldest (ids are consecutive), oldest first: their charges go back.
    local leaving
    if length == size + 1 then
      leaving = { redis.call('RPOP', b .. 'j') }
    else
      -- More than one: a turn's entries, or a ring made smaller (--journal-size); all beyond the size.
      local newestFirst = redis.call('LRANGE', b .. 'j', size, -1)
      redis.call('LTRIM', b .. 'j', 0, size - 1)
      leaving = {}
      for k = #newestFirst, 1, -1 do leaving[#leaving + 1] = newestFirst[k] end
    end
    local oldest = first + n - length
    local gone = {}
    for k, kept in ipairs(leaving) do
      local c = leavingCost(b, kept)
      if c then
        gone[#gone + 1] = c .. ',' .. fmt(oldest + k - 1) .. ',' .. name
        change = change - tonumber(c)
      end
    end
    if #gone > 0 then redis.call('ZREM', Pq .. ':jz', unpack(gone)) end
    journalDropped(b, #leaving)
  end
  local used = redis.call('HINCRBY', Pq .. ':mem', 'journal', change)
  if share >= 0 then journalMakeRoom(P, Pq, used, share, scored[2 * n]) end
end

-- Recording requests: `record(b, size, P, share, Pq, entries)` stores the entries ({ tail, cost, … }
-- as journalKeep takes them) under the next ids, in order, each charged its cost (journal.ts
-- recordBytes) to the journal's share (`share` bytes, < 0: none) in the same change (luaJournal):
-- the oldest beyond the size, then the oldest of any session beyond the share, are dropped
-- (counted in `jd`). Each is published to every replica's subscribers (`<prefix>:ev:<name>`) when
-- the channel has any; answers the first id.
-- The journal (request headers and bodies) never outlives its session: its keys take the session's TTL when made.
local function record(b, size, P, share, Pq, entries)
  local n = #entries / 2
  local last = redis.call('INCRBY', b .. 'jn', n)
  if last == n then keep(b, 'jn') end
  local first = last - n + 1
  if size > 0 then journalKeep(P, Pq, b, first, entries, size, share) else journalDropped(b, n) end
  -- The published texts are made only for a channel someone listens on (most have nobody): a
  -- subscriber not counted yet reads the entries back from the list once subscribed
  -- (journal-events.ts). If NUMSUB is refused (an ACL), they are published as before.
  local channel = P .. ':ev:' .. journalName(P, b)
  local listening = redis.pcall('PUBSUB', 'NUMSUB', channel)
  if type(listening) ~= 'table' or listening.err or listening[2] > 0 then
    for k = 1, n do redis.call('PUBLISH', channel, '{"id":' .. (first + k - 1) .. entries[2 * k - 1]) end
  end
  return first
end

-- Records the requests a replica gathered over one turn for one session, in the order they were
-- made (turn-groups.ts; ARGV: base, journal size, prefix, the journal's share or -1, the
-- session's pool (luaBudget), then each entry's JSON after `"id":N` and its cost): see record.
S.psRecords = function(ARGV)
  local entries = {}
  for i = 6, #ARGV do entries[i - 5] = ARGV[i] end
  return record(ARGV[1], tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4]), ARGV[5], entries)
end

-- Empties a session's journal, its entries' bytes given back (ARGV: base, prefix, pool); its ids go on.
S.psClearJournal = function(ARGV)
  journalRelease(ARGV[2], ARGV[3], ARGV[1])
  return 1
end
