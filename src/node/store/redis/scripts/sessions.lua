-- What dropping a session gives back: its journal's entries, its state share's bytes, its place in its tenant's count.
local function giveBack(P, b)
  local Pq, q = poolOf(P, b)
  journalRelease(P, Pq, b)
  budgetDrop(Pq, b, SESSION_BYTES)
  if q then redis.call('HINCRBY', P .. ':tn', q, -1) end
end

-- Redis' clock in ms; dropping a session idle past the TTL with its tombstone (and its bytes); setting its keys' TTL.
local function nowMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function expireKeys(b, ms)
  for _, s in ipairs(ALL) do redis.call('PEXPIRE', b .. s, ms) end
end
-- Keeps `stone` (its time first) as `name`'s tombstone; the oldest go beyond MAX_TOMBSTONES.
local function keepTombstone(P, name, stone, at)
  redis.call('HSET', P .. ':tomb', name, stone)
  redis.call('ZADD', P .. ':tombz', at, name)
  if redis.call('ZCARD', P .. ':tombz') > MAX_TOMBSTONES then
    local oldest = redis.call('ZPOPMIN', P .. ':tombz')
    redis.call('HDEL', P .. ':tomb', oldest[1])
  end
end
local function entomb(P, name, now, ttl)
  giveBack(P, P .. ':s:' .. name .. ':')
  dropKeys(P .. ':s:' .. name .. ':')
  redis.call('ZREM', P .. ':reg', name)
  redis.call('PUBLISH', P .. ':ev:' .. name, '')
  local stone = string.format('%.0f', now) .. ',idle,' .. string.format('%.0f', ttl / 1000)
  keepTombstone(P, name, stone, now)
  redis.call('INCR', P .. ':dropped')
  return stone
end
-- Every session but the default idle past the TTL: dropped, each leaving its tombstone. Answers the names dropped.
local function sweep(P, now, ttl)
  local dropped = {}
  if ttl == 0 then return dropped end
  for _, victim in ipairs(redis.call('ZRANGEBYSCORE', P .. ':reg', '-inf', '(' .. string.format('%.0f', now - ttl))) do
    if victim ~= 'default' then
      entomb(P, victim, now, ttl)
      dropped[#dropped + 1] = victim
    end
  end
  return dropped
end

local function drop(P, name)
  giveBack(P, P .. ':s:' .. name .. ':')
  dropKeys(P .. ':s:' .. name .. ':')
  redis.call('ZREM', P .. ':reg', name)
  -- An empty message ends the session's event streams on every replica.
  redis.call('PUBLISH', P .. ':ev:' .. name, '')
end

-- Writes the start template once (ARGV: prefix, template base, world JSON) and
-- makes the default session from it when there is none, without touching the
-- recency of one that exists (state survives restarts).
S.psInit = function(ARGV)
  local P, tpl = ARGV[1], ARGV[2]
  if redis.call('EXISTS', tpl .. 'ready') == 0 then
    writeWorld(tpl, cjson.decode(ARGV[3]))
    redis.call('SET', tpl .. 'ready', '1')
  end
  local b = P .. ':s:default:'
  if redis.call('EXISTS', b .. 'm') == 0 then copyWorld(tpl, b) end
  if not redis.call('ZSCORE', P .. ':reg', 'default') then
    local t = redis.call('TIME')
    redis.call('ZADD', P .. ':reg', tonumber(t[1]) * 1000, 'default')
  end
  return 1
end

-- The read named ahead of the session at b (kind 'pet' with the id, 'list' with the index's suffix
-- and the limit, else none), as psSession answers it after the meta: a NUL and the pet or the page.
local function readAhead(b, kind, a, limit)
  if kind == 'pet' then
    return '\0' .. (redis.call('ZRANGE', b .. 'i', a, a, 'BYSCORE')[1] or '')
  elseif kind == 'list' then
    return '\0[' .. table.concat(redis.call('ZRANGE', b .. a, 0, tonumber(limit) - 1), ',') .. ']'
  end
  return ''
end

-- Selects a session (ARGV: prefix, name, template base, most sessions of its pool, TTL ms
-- (0: never), mode `use`/`read`/`revive`, see core/sessions/lifecycle.ts, its tenant or ''):
-- found and marked used (at most one write a second), or made from the
-- template, or none, all in one change. A session idle past the TTL is
-- dropped with its tombstone first; at the cap, the sessions idle past the
-- TTL are swept, and a new one is refused if none was. Answers what a request
-- reads up front (metaOf), then, after a NUL, the read named ahead (ARGV[8]:
-- 'pet' with the id, 'list' with the index's suffix and the limit, '' for
-- none): the pet's JSON or '' for none, or the page as one JSON array text;
-- a made session's answer starts with \\2, its mark (psDiscard) and \\2 again. No
-- session: \\1 and `expired`,
-- the tombstone and `1` when dropped by this call; `full` and the count (a
-- tenant's: `quota`, luaBudget's pools); `unknown`, separated by \\1. One
-- string to decode.
S.psSession = function(ARGV)
  local P, name, tpl, max, ttl, mode = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6]
  local reg = P .. ':reg'
  local b = P .. ':s:' .. name .. ':'
  local function answer(mark)
    local meta, made = metaOf(b)
    -- Selected again: the session is no longer one only its maker uses (psDiscard leaves it).
    if made and mark == '' then redis.call('HDEL', b .. 'm', 'nw', 'ns') end
    return mark .. meta .. readAhead(b, ARGV[8], ARGV[9], ARGV[10])
  end
  local now = nowMs()
  local latest = redis.call('ZRANGE', reg, -1, -1, 'WITHSCORES')
  -- The session most recently used (under load, most requests) has its score there already.
  local used
  if latest[1] == name then used = latest[2] else used = redis.call('ZSCORE', reg, name) end
  -- Marks the session most recently used: now, or just after the latest one used in the same ms.
  -- A Redis at its maxmemory refuses the mark (OOM): the session is used all the same, unmarked,
  -- since selecting one is a read (issue 41: reads go on while Redis is full).
  local function touch()
    local at = now
    if latest[1] and latest[1] ~= name and tonumber(latest[2]) >= at then at = tonumber(latest[2]) + 0.001 end
    local marked = redis.pcall('ZADD', reg, at, name)
    if type(marked) == 'table' and marked.err and string.sub(marked.err, 1, 3) ~= 'OOM' then error(marked) end
  end
  local droppedNow = ''
  if used then
    used = tonumber(used)
    if ttl == 0 or name == 'default' or now - used <= ttl then
      -- The most recent already, used within the last second: nothing to write (the append-only file
      -- stays quiet under load). Keys' TTLs are refreshed at most once a second.
      local stale = now - used >= 1000
      if stale or latest[1] ~= name then touch() end
      if stale and ttl > 0 and name ~= 'default' then expireKeys(b, ttl + 60000) end
      return answer('')
    end
    entomb(P, name, now, ttl)
    droppedNow = '\0011'
  end
  local stone = redis.call('HGET', P .. ':tomb', name)
  if stone and mode ~= 'revive' then return '\001expired\001' .. stone .. droppedNow end
  if mode == 'read' then return '\001unknown' end
  -- The cap counts the named sessions of the pool: a tenant's, or (the default one always exists)
  -- those of no tenant, what the tenants' counts leave.
  local q = ARGV[7]
  local function poolCount()
    if q ~= '' then return tonumber(redis.call('HGET', P .. ':tn', q) or '0') end
    local n = redis.call('ZCARD', reg) - 1
    for _, c in ipairs(redis.call('HVALS', P .. ':tn')) do n = n - tonumber(c) end
    return n
  end
  local count = poolCount()
  if count >= max then
    sweep(P, now, ttl)
    count = poolCount()
  end
  if count >= max then
    if q ~= '' then return '\001quota\001' .. count end
    return '\001full\001' .. count
  end
  local Pq = P
  if q ~= '' then Pq = P .. ':q:' .. q end
  if stone then
    redis.call('HDEL', P .. ':tomb', name)
    redis.call('ZREM', P .. ':tombz', name)
  end
  copyWorld(tpl, b)
  journalRelease(P, Pq, b)
  redis.call('DEL', b .. 'jn', b .. 'w', b .. 'wo', b .. 'd')
  -- A session's own cost (sessionBytes), counted, never refused: selecting one is a read.
  redis.call('HSET', b .. 'm', 'bs', '1')
  redis.call('HINCRBY', Pq .. ':mem', 'sessions', SESSION_BYTES)
  if q ~= '' then
    redis.call('HSET', b .. 'm', 'q', q)
    redis.call('HINCRBY', P .. ':tn', q, 1)
  end
  -- Its mark until any selection uses it (answer), and the tombstone its making cleared: psDiscard.
  local mk = redis.call('INCR', P .. ':mk')
  redis.call('HSET', b .. 'm', 'nw', mk)
  if stone then redis.call('HSET', b .. 'm', 'ns', stone) end
  touch()
  if ttl > 0 then expireKeys(b, ttl + 60000) end
  return answer('\002' .. mk .. '\002')
end

-- Selects one session for several requests of one turn (turn-groups.ts). ARGV: psSession's
-- first seven, then per request the number of its read's arguments and those (psSession's ARGV[8]
-- on). Answers, per request, what psSession called for each in turn would: the first selects as
-- psSession does; once it found or made the session, the others find it as the first left it
-- (nothing runs in between, in the same millisecond or the next: no touch is due), so they share
-- one read of its meta, and equal reads are read once, the first's included. Under load most
-- requests of a turn are of a few sessions: each costs its read, not a selection.
S.psSessions = function(ARGV)
  local reads, i = {}, 8
  while i <= #ARGV do
    local n = tonumber(ARGV[i])
    local read = {}
    for k = 1, n do read[k] = ARGV[i + k] end
    reads[#reads + 1] = read
    i = i + 1 + n
  end
  local function select(read)
    local args = { ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7] }
    for k = 1, #read do args[7 + k] = read[k] end
    return S.psSession(args)
  end
  local out = { select(reads[1]) }
  if string.byte(out[1], 1) == 1 then
    -- No session (expired, unknown, full): each as on its own.
    for k = 2, #reads do out[k] = select(reads[k]) end
    return out
  end
  local b = ARGV[1] .. ':s:' .. ARGV[2] .. ':'
  local seen, meta = {}, nil
  if string.byte(out[1], 1) == 2 then
    -- The first made it and the others use it too: no longer one only its maker uses (psDiscard).
    redis.call('HDEL', b .. 'm', 'nw', 'ns')
  else
    -- The first found it: its answer is theirs too, its page and meta not read again (a page is 1–2 KB).
    seen[table.concat(reads[1], '\0')] = out[1]
  end
  for k = 2, #reads do
    local read = reads[k]
    local key = table.concat(read, '\0')
    local text = seen[key]
    if not text then
      -- Read once, and only for a read the first did not answer (metaOf leaves the mark's fields out).
      meta = meta or (metaOf(b))
      text = meta .. readAhead(b, read[1], read[2], read[3])
      seen[key] = text
    end
    out[k] = text
  end
  return out
end

-- What a request reads up front, for a session object made without it (listings). ARGV: base.
S.psMeta = function(ARGV)
  return (metaOf(ARGV[1]))
end

-- Drops the sessions idle past the TTL (ARGV: prefix, TTL ms): the names dropped.
S.psSweep = function(ARGV)
  return sweep(ARGV[1], nowMs(), tonumber(ARGV[2]))
end

-- The tombstones, oldest first (ARGV: prefix): name, stone, name, stone…
S.psTombstones = function(ARGV)
  local P = ARGV[1]
  local out = {}
  for _, name in ipairs(redis.call('ZRANGE', P .. ':tombz', 0, -1)) do
    out[#out + 1] = name
    out[#out + 1] = redis.call('HGET', P .. ':tomb', name) or ''
  end
  return out
end

-- Drops a session (ARGV: prefix, name): 0 for the default one or an unknown name.
S.psDrop = function(ARGV)
  local P, name = ARGV[1], ARGV[2]
  if name == 'default' or not redis.call('ZSCORE', P .. ':reg', name) then return 0 end
  drop(P, name)
  return 1
end

-- Drops a session its maker's change was refused in (ARGV: prefix, name, the mark psSession
-- answered its maker), unless any selection has used it since (its mark is gone) or it was dropped
-- and made again (another mark); the tombstone its making cleared is back. 1 when dropped.
S.psDiscard = function(ARGV)
  local P, name = ARGV[1], ARGV[2]
  local made = redis.call('HMGET', P .. ':s:' .. name .. ':m', 'nw', 'ns')
  if made[1] ~= ARGV[3] then return 0 end
  drop(P, name)
  local stone = made[2]
  if stone then keepTombstone(P, name, stone, tonumber(string.match(stone, '^[^,]+'))) end
  return 1
end

-- The default session's pets, the number of sessions and of drops (ARGV: prefix, TTL ms), once the idle ones are swept.
S.psStats = function(ARGV)
  local P = ARGV[1]
  local dropped = sweep(P, nowMs(), tonumber(ARGV[2]))
  return { redis.call('ZCARD', P .. ':s:default:i'), redis.call('ZCARD', P .. ':reg'), tonumber(redis.call('GET', P .. ':dropped') or '0'), dropped }
end

-- Back to the start (ARGV: base, template base, prefix): the world copied, journal emptied (its ids
-- go on), windows, counters and coverage gone, and their bytes given back; the start world is
-- charged nothing. A staged write in progress keeps its reservation (its commit gives it back).
S.psReset = function(ARGV)
  local b, P = ARGV[1], ARGV[3]
  -- What goes, first: a script's first write that may grow memory is refused while Redis is past its
  -- maxmemory (OOM), one after a write is not, so a reset runs on a full Redis and frees it (issue 41).
  redis.call('DEL', b .. 'w', b .. 'wo', b .. 'd', b .. 'cv', b .. 'pk', b .. 'pl', b .. 'pn', b .. 'tc')
  local Pq = poolOf(P, b)
  budgetResize(Pq, b, 0, 0, -1, 'pets')
  budgetRelease(Pq, b, 'deprecations', 'bd')
  budgetRelease(Pq, b, 'rateLimits', 'bw')
  local kept = redis.call('HMGET', b .. 'm', 'bs', 'bx', 'q')
  copyWorld(ARGV[2], b)
  journalRelease(P, Pq, b)
  if kept[1] then redis.call('HSET', b .. 'm', 'bs', kept[1]) end
  if kept[2] then redis.call('HSET', b .. 'm', 'bx', kept[2]) end
  if kept[3] then redis.call('HSET', b .. 'm', 'q', kept[3]) end
  return 1
end

-- Sizes for listings (ARGV: base).
S.psSummary = function(ARGV)
  local b = ARGV[1]
  return { redis.call('ZCARD', b .. 'i'), redis.call('LLEN', b .. 'f'), redis.call('LLEN', b .. 'j') }
end
