-- A pet's JSON (ARGV: base, id), or nil when there is none.
S.psGetPet = function(ARGV)
  return redis.call('ZRANGE', ARGV[1] .. 'i', ARGV[2], ARGV[2], 'BYSCORE')[1]
end

-- Up to a number of pets ascending by id (ARGV: base, the index's suffix: 'i'
-- or 'i:<status>', limit), as one JSON array text: one string to decode, not
-- one per pet.
S.psListPets = function(ARGV)
  return '[' .. table.concat(redis.call('ZRANGE', ARGV[1] .. ARGV[2], 0, tonumber(ARGV[3]) - 1), ',') .. ']'
end

-- Creates a pet (ARGV: base, most pets, the JSON after `"id":N,`, status or
-- '', prefix, its cost, the budget's state share or -1): its id, '' when full
-- (at capacity, or ids used up), or a refusal of the budget (luaBudget).
S.psCreatePet = function(ARGV)
  local b = ARGV[1]
  if redis.call('ZCARD', b .. 'i') >= tonumber(ARGV[2]) then return '' end
  -- The budget's charges and the next id in one read.
  local had = redis.call('HMGET', b .. 'm', 'bp', 'br', 'nextId')
  local id = tonumber(had[3])
  if id > 9007199254740991 then return '' end
  -- The next id is written with the charges, in one HSET.
  local refused = budgetGrow(ARGV[5], b, 'pets', tonumber(ARGV[6]), tonumber(ARGV[7]), had, 'nextId', fmt(id + 1))
  if refused then return refused end
  local sid = fmt(id)
  local json = '{"id":' .. sid .. ',' .. ARGV[3]
  redis.call('ZADD', b .. 'i', sid, json)
  if ARGV[4] ~= '' then redis.call('ZADD', b .. 'i:' .. ARGV[4], sid, json) end
  return sid
end

-- Replaces every pet (ARGV: base, prefix, their cost, the budget's state share or -1, then id,
-- status, JSON for each): new ids continue after the largest. Answers 1, or a refusal of the
-- budget (luaBudget), changing nothing.
S.psReplacePets = function(ARGV)
  local b = ARGV[1]
  local br = tonumber(redis.call('HGET', b .. 'm', 'br') or '0')
  local refused = budgetResize(ARGV[2], b, tonumber(ARGV[3]), br, tonumber(ARGV[4]), 'pets')
  if refused then return refused end
  redis.call('DEL', b .. 'i', b .. 'i:available', b .. 'i:pending', b .. 'i:sold')
  local largest = 0
  for i = 5, #ARGV, 3 do
    redis.call('ZADD', b .. 'i', ARGV[i], ARGV[i + 2])
    if ARGV[i + 1] ~= '' then redis.call('ZADD', b .. 'i:' .. ARGV[i + 1], ARGV[i], ARGV[i + 2]) end
    largest = math.max(largest, tonumber(ARGV[i]))
  end
  redis.call('HSET', b .. 'm', 'nextId', fmt(largest + 1))
  return 1
end
