-- The memory budget's state share on the shared state (issue 29), charged and released in the
-- scripts that change what it counts, atomically with the change. `<prefix>:mem` holds what every
-- session of the prefix is charged, by part (`pets`, `rules`, `sessions`, `deprecations`,
-- `rateLimits`); a session's meta its own (`bp` pets, `br` rules, `bs` its own cost, `bd`
-- deprecation records, `bw` rate-limit windows, `bx` pets' bytes reserved by a staged write in
-- progress), so that a reset, a load or a drop gives back exactly what it held. The costs are the
-- memory store's (src/core/budget/costs.ts), reckoned by the caller. `limit` < 0: no budget. A
-- refusal is one text: `!part,needed,free,pets,rules,sessions,deprecations,rateLimits` (codec:
-- refusalOf).
-- Pools (issue 39): the `P` these functions take is the session's pool (`Pq` where the prefix is
-- needed too): the prefix itself for the sessions of no tenant (the keys as before tenants),
-- `<prefix>:q:<tenant>` for a tenant's, whose sessions are charged in `<prefix>:q:<tenant>:mem`
-- against its quota (the caller passes the pool's limit). A session of a tenant has its name in its meta (`q`), for what drops it; the
-- number of each tenant's sessions is `<prefix>:tn` (field: the tenant).
local function poolOf(P, b)
  local q = redis.call('HGET', b .. 'm', 'q')
  if q then return P .. ':q:' .. q, q end
  return P, nil
end
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
-- What charging the session pets and rules bytes would change (dp, dr), and the refusal when it
-- grows the state share beyond limit (else false). `had`: its charges { bp, br } when the caller
-- has just read them (budgetGrow), else read here.
local function budgetCheck(P, b, pets, rules, limit, part, had)
  had = had or redis.call('HMGET', b .. 'm', 'bp', 'br')
  local dp, dr = pets - tonumber(had[1] or '0'), rules - tonumber(had[2] or '0')
  local grow = math.max(0, dp) + math.max(0, dr)
  if grow > 0 and limit >= 0 then
    local used, got = budgetUsed(P)
    if used + dp + dr > limit then return dp, dr, budgetRefusal(part, grow, limit, used, got) end
  end
  return dp, dr, false
end
-- Sets the session's charges (bp, br) to pets and rules bytes; or refuses a growth beyond limit, changing nothing.
-- `...`: more fields and values of the session's hash the caller writes with them (a create's next id).
local function budgetResize(P, b, pets, rules, limit, part, had, ...)
  local dp, dr, refused = budgetCheck(P, b, pets, rules, limit, part, had)
  if refused then return refused end
  redis.call('HSET', b .. 'm', 'bp', string.format('%.0f', pets), 'br', string.format('%.0f', rules), ...)
  if dp ~= 0 then redis.call('HINCRBY', P .. ':mem', 'pets', dp) end
  if dr ~= 0 then redis.call('HINCRBY', P .. ':mem', 'rules', dr) end
  return false
end
-- Adds bytes to one charge of the session (a create, a rule), or refuses. `had`: as budgetCheck's,
-- the caller's read of the meta starting with bp and br (a create reads nextId in the same HMGET);
-- `...` as budgetResize's.
local function budgetGrow(P, b, part, bytes, limit, had, ...)
  had = had or redis.call('HMGET', b .. 'm', 'bp', 'br')
  local pets, rules = tonumber(had[1] or '0'), tonumber(had[2] or '0')
  if part == 'pets' then pets = pets + bytes else rules = rules + bytes end
  return budgetResize(P, b, pets, rules, limit, part, had, ...)
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
  local dp, dr, refused = budgetCheck(P, b, pets, rules, limit, 'pets')
  if refused then return refused, 0 end
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

-- What the budget holds on this prefix (ARGV: prefix, then tenants' names): pets, rules, sessions,
-- deprecation records, rate-limit windows and journal bytes, and the number of journal entries, of
-- the sessions of no tenant; then the same of each tenant named, and its number of sessions.
S.psMemory = function(ARGV)
  local out = {}
  for i = 1, #ARGV do
    local Pq = ARGV[1]
    if i > 1 then Pq = ARGV[1] .. ':q:' .. ARGV[i] end
    local got = redis.call('HMGET', Pq .. ':mem', 'pets', 'rules', 'sessions', 'deprecations', 'rateLimits', 'journal')
    for k = 1, 6 do out[#out + 1] = got[k] or '0' end
    out[#out + 1] = tostring(redis.call('ZCARD', Pq .. ':jz'))
    if i > 1 then out[#out + 1] = redis.call('HGET', ARGV[1] .. ':tn', ARGV[i]) or '0' end
  end
  return out
end
