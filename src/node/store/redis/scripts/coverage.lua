-- Counts a request (ARGV: base, number of counters, the counters, then the
-- interaction's key, its seed's JSON or '' when the replica believes it kept,
-- and the most kept; or nothing): one change. Answers 1 when the interaction
-- is kept (or there is none), 0 when it is left out beyond the bound, 2 when
-- its seed is needed (sent as '', but not kept: nothing of it was changed
-- beyond the counters).
S.psCountCoverage = function(ARGV)
  local b, n = ARGV[1], tonumber(ARGV[2])
  -- Each key takes the session's TTL when made (keep), as the journal's do: nothing outlives its session.
  if n > 0 then
    local fresh = redis.call('EXISTS', b .. 'cv') == 0
    for i = 3, n + 2 do redis.call('HINCRBY', b .. 'cv', ARGV[i], 1) end
    if fresh then keep(b, 'cv') end
  end
  local key = ARGV[n + 3]
  if not key or redis.call('SISMEMBER', b .. 'pk', key) == 1 then return 1 end
  local kept = redis.call('SCARD', b .. 'pk')
  if kept >= tonumber(ARGV[n + 5]) then
    if redis.call('INCR', b .. 'pn') == 1 then keep(b, 'pn') end
    return 0
  end
  if ARGV[n + 4] == '' then return 2 end
  redis.call('SADD', b .. 'pk', key)
  redis.call('RPUSH', b .. 'pl', ARGV[n + 4])
  if kept == 0 then keep(b, 'pk'); keep(b, 'pl') end
  return 1
end

-- The kept interactions (ARGV: base): { seeds' JSON oldest first, requests left out }.
S.psInteractions = function(ARGV)
  local b = ARGV[1]
  return { redis.call('LRANGE', b .. 'pl', 0, -1), tonumber(redis.call('GET', b .. 'pn') or '0') }
end
