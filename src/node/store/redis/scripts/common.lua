-- Numbers as Redis and JSON take them: integers without exponent (ids up to 2^53).
local function fmt(n) return string.format('%.0f', n) end

-- A key made now takes the session's TTL (its meta's), so nothing of an expiring session stays forever.
local function keep(b, s)
  local ttl = redis.call('PTTL', b .. 'm')
  if ttl > 0 and redis.call('PTTL', b .. s) == -1 then redis.call('PEXPIRE', b .. s, ttl) end
end
