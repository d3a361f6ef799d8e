-- The latency of the next answer (ARGV: base): a draw from the range, nil when the session has none.
S.psDrawLatency = function(ARGV)
  local m = ARGV[1] .. 'm'
  local range = redis.call('HMGET', m, 'lmin', 'lmax')
  if not range[1] then return false end
  local low, high = tonumber(range[1]), tonumber(range[2])
  if low == high then return low end
  local r = rngLoad(m)
  local ms = rngInt(r, low, high)
  rngSave(m, r)
  return ms
end
