-- Writing a loaded world over a session's (luaWorld, luaBudget), once its pets and rules are charged
-- (bp, br): its own cost, deprecation records and reservations kept; windows fresh, their bytes
-- given back.
local function loadWorld(P, b, w)
  local kept = redis.call('HMGET', b .. 'm', 'bp', 'br', 'bs', 'bd', 'bx', 'q')
  budgetRelease(P, b, 'rateLimits', 'bw')
  writeWorld(b, w)
  local fields = { 'bp', 'br', 'bs', 'bd', 'bx', 'q' }
  for i = 1, 6 do
    if kept[i] then redis.call('HSET', b .. 'm', fields[i], kept[i]) end
  end
  redis.call('DEL', b .. 'w', b .. 'wo')
end

-- A snapshot load (ARGV: base, world JSON, prefix, its pets' cost, its rules' cost, the budget's
-- state share or -1): the world, clock and rate limit (in its meta) at once, windows fresh; the
-- journal stays. Answers 1, or a refusal of the budget (luaBudget), changing nothing.
S.psLoad = function(ARGV)
  local refused = budgetResize(ARGV[3], ARGV[1], tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), 'pets')
  if refused then return refused end
  loadWorld(ARGV[3], ARGV[1], cjson.decode(ARGV[2]))
  return 1
end

-- Everything a snapshot saves, read at once (ARGV: base): meta, pets, rules.
S.psContents = function(ARGV)
  local b = ARGV[1]
  local ids = redis.call('LRANGE', b .. 'f', 0, -1)
  local rules = {}
  for _, id in ipairs(ids) do
    rules[#rules + 1] = redis.call('HGET', b .. 'fj', id)
    rules[#rules + 1] = redis.call('HGET', b .. 'fr', id) or ''
  end
  return { redis.call('HGETALL', b .. 'm'), redis.call('ZRANGE', b .. 'i', 0, -1), rules }
end
