-- Contract coverage and the distinct interactions of a session (ARGV[1]: the session's base):
-- counters in the hash `cv` (HINCRBY, so every replica's requests add up exactly); interactions as
-- their keys in the set `pk` and their seeds' JSON in the list `pl` (oldest first), the requests of
-- those left out beyond the bound in `pn`.

-- Counts the requests a replica gathered over one turn for a session (coverage-batch.ts), one
-- change (ARGV: base, number of counters, then each counter and how many requests it counts,
-- number of interactions, then each interaction's key, its seed's JSON or '' when the replica
-- believes it kept, and how many requests it counts, then the most kept). Answers a code per
-- interaction: 1 kept, 0 left out beyond the bound (its requests counted in `pn`), 2 its seed is
-- needed (sent as '', but not kept: nothing of it was changed).
S.psCountCoverage = function(ARGV)
  local b, n = ARGV[1], tonumber(ARGV[2])
  -- Each key takes the session's TTL when made (keep), as the journal's do: nothing outlives its session.
  if n > 0 then
    local fresh = redis.call('EXISTS', b .. 'cv') == 0
    for i = 3, 2 * n + 1, 2 do redis.call('HINCRBY', b .. 'cv', ARGV[i], ARGV[i + 1]) end
    if fresh then keep(b, 'cv') end
  end
  local at = 2 * n + 3
  local m = tonumber(ARGV[at])
  local most = tonumber(ARGV[at + 3 * m + 1])
  local codes, kept = {}, nil
  for k = 1, m do
    local key, seed, count = ARGV[at + 3 * k - 2], ARGV[at + 3 * k - 1], ARGV[at + 3 * k]
    local code = 1
    if redis.call('SISMEMBER', b .. 'pk', key) == 0 then
      kept = kept or redis.call('SCARD', b .. 'pk')
      if kept >= most then
        if redis.call('INCRBY', b .. 'pn', count) == tonumber(count) then keep(b, 'pn') end
        code = 0
      elseif seed == '' then
        code = 2
      else
        redis.call('SADD', b .. 'pk', key)
        redis.call('RPUSH', b .. 'pl', seed)
        if kept == 0 then keep(b, 'pk'); keep(b, 'pl') end
        kept = kept + 1
        code = 1
      end
    end
    codes[k] = code
  end
  return codes
end

-- The kept interactions (ARGV: base): { seeds' JSON oldest first, requests left out }.
S.psInteractions = function(ARGV)
  local b = ARGV[1]
  return { redis.call('LRANGE', b .. 'pl', 0, -1), tonumber(redis.call('GET', b .. 'pn') or '0') }
end
