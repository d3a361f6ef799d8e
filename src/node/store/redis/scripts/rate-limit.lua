-- Counts a request of an API key against its window (ARGV: base, key, real
-- now, most keys tracked, prefix, the window's cost), on the session's clock:
-- { allowed 1/0, remaining, reset seconds, limit, window seconds }, or nil
-- without a limit. Windows are `start,count` in a hash; recency of keys in a
-- sorted set, the least recent forgotten beyond the cap, as in memory. A new
-- key's window is counted in the budget (never refused: luaBudget's
-- budgetNote), unless it takes the place of the least recent one.
S.psHitRateLimit = function(ARGV)
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
end

-- A new rate limit (ARGV: base, `limit,window` or '' for none, prefix) with every window fresh (their bytes given back).
S.psSetRateLimit = function(ARGV)
  local b = ARGV[1]
  if ARGV[2] == '' then redis.call('HDEL', b .. 'm', 'rl') else redis.call('HSET', b .. 'm', 'rl', ARGV[2]) end
  redis.call('DEL', b .. 'w', b .. 'wo')
  budgetRelease(ARGV[3], b, 'rateLimits', 'bw')
  return 1
end

-- The rate limit as it stands (ARGV: base): { policy or nil, keys tracked }.
S.psRateLimitState = function(ARGV)
  local b = ARGV[1]
  return { redis.call('HGET', b .. 'm', 'rl'), redis.call('HLEN', b .. 'w') }
end
