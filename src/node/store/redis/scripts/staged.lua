-- The rules' cost as given, or '' for what the session's rules are charged now (a replace of the pets keeps them).
local function rulesCost(b, given)
  if given ~= '' then return tonumber(given) end
  return tonumber(redis.call('HGET', b .. 'm', 'br') or '0')
end

-- Staging keys let go of; a reservation given back (at most what the session still holds: a drop gave it all).
local function unstage(s)
  for _, suffix in ipairs(PETS) do redis.call('UNLINK', s .. suffix) end
end

-- Reserves a staged write (ARGV: base, prefix, its pets' cost, its rules' cost or '' for the rules
-- kept, the budget's state share or -1): the bytes reserved, or a refusal of the budget (luaBudget),
-- changing nothing.
S.psStageBegin = function(ARGV)
  local rules = rulesCost(ARGV[1], ARGV[4])
  local refused, reserved = budgetReserve(ARGV[2], ARGV[1], tonumber(ARGV[3]), rules, tonumber(ARGV[5]))
  if refused then return refused end
  return reserved
end

-- A slice of pets into the staging keys (ARGV: base, staging base, their TTL ms, then id, status, JSON for each): 1.
S.psStageAdd = function(ARGV)
  local s, ttl = ARGV[2], ARGV[3]
  local all, by = {}, {}
  for i = 4, #ARGV, 3 do
    all[#all + 1] = ARGV[i]
    all[#all + 1] = ARGV[i + 2]
    if ARGV[i + 1] ~= '' then
      local list = by[ARGV[i + 1]] or {}
      list[#list + 1] = ARGV[i]
      list[#list + 1] = ARGV[i + 2]
      by[ARGV[i + 1]] = list
    end
  end
  if #all > 0 then
    redis.call('ZADD', s .. 'i', unpack(all))
    redis.call('PEXPIRE', s .. 'i', ttl)
  end
  for status, list in pairs(by) do
    redis.call('ZADD', s .. 'i:' .. status, unpack(list))
    redis.call('PEXPIRE', s .. 'i:' .. status, ttl)
  end
  return 1
end

-- Switches a staged write in (ARGV: base, prefix, staging base, bytes reserved, the pets' cost, the
-- rules' cost or '' for the rules kept, the budget's state share or -1, then the largest id for a replace of the pets, or ''
-- and the loaded world's JSON without its pets, as loadScript takes it): 1, or a refusal of the
-- budget (luaBudget; only should a reset have given back what the reservation counted on), the
-- staged pets let go of and nothing changed. A session dropped meanwhile takes nothing.
S.psStageCommit = function(ARGV)
  local b, P, s = ARGV[1], ARGV[2], ARGV[3]
  if redis.call('EXISTS', b .. 'm') == 0 then
    unstage(s)
    return 1
  end
  budgetUnreserve(P, b, tonumber(ARGV[4]))
  local refused = budgetResize(P, b, tonumber(ARGV[5]), rulesCost(b, ARGV[6]), tonumber(ARGV[7]), 'pets')
  if refused then
    unstage(s)
    return refused
  end
  local ttl = redis.call('PTTL', b .. 'm')
  if ARGV[8] == '' then
    loadWorld(P, b, cjson.decode(ARGV[9]))
  else
    redis.call('HSET', b .. 'm', 'nextId', fmt(tonumber(ARGV[8]) + 1))
  end
  for _, suffix in ipairs(PETS) do
    redis.call('UNLINK', b .. suffix)
    if redis.call('EXISTS', s .. suffix) == 1 then redis.call('RENAME', s .. suffix, b .. suffix) end
  end
  -- The session's keys keep its TTL (the staged ones had their own; a load wrote its meta anew).
  for _, suffix in ipairs(WORLD) do
    if ttl > 0 then redis.call('PEXPIRE', b .. suffix, ttl) else redis.call('PERSIST', b .. suffix) end
  end
  return 1
end

-- Gives up a staged write (ARGV: base, prefix, staging base, bytes reserved): its keys go, its reservation comes back.
S.psStageAbort = function(ARGV)
  unstage(ARGV[3])
  if redis.call('EXISTS', ARGV[1] .. 'm') == 1 then budgetUnreserve(ARGV[2], ARGV[1], tonumber(ARGV[4])) end
  return 1
end
