-- Counting a call of a deprecated operation: `note(P, d, op, key, now, most
-- clients)` answers 'client' for a client's first call, 'overflow' for the
-- first call beyond the cap, else false. Counters are `calls,first,last[,order]`
-- in the hash `d`: `op\nt` (all), `op\no` (beyond the cap), `op\nn` (clients),
-- `op\nc\n<key>` (one client). A new record is counted in the budget (never
-- refused), as in memory (costs.ts). Needs luaFormat, luaKeep and luaBudget.
local function note(P, d, op, key, now, maxClients)
  -- A counter's next value: one more call, the first kept, the last now, the rest (order) kept.
  local function bumped(v)
    if not v then return '1,' .. now .. ',' .. now end
    local calls, first, _, rest = string.match(v, '^(%d+),([^,]+),([^,]+)(.*)$')
    return fmt(tonumber(calls) + 1) .. ',' .. first .. ',' .. now .. rest
  end
  local total, field, count = op .. '\nt', op .. '\nc\n' .. key, op .. '\nn'
  -- One read and one write on the common path (a client seen before).
  local got = redis.call('HMGET', d, total, field, count)
  if got[2] then
    redis.call('HSET', d, total, bumped(got[1]), field, bumped(got[2]))
    return false
  end
  local clients = tonumber(got[3] or '0')
  if clients < maxClients then
    redis.call('HSET', d, total, bumped(got[1]), field, '1,' .. now .. ',' .. now .. ',' .. fmt(clients), count, fmt(clients + 1))
    -- A new client (rare): the hash may be new, and takes the session's TTL.
    keep(string.sub(d, 1, -2), 'd')
    budgetNote(P, string.sub(d, 1, -2), 'deprecations', 'bd', DEPRECATION_CLIENT_BYTES)
    return 'client'
  end
  local other = op .. '\no'
  local was = redis.call('HGET', d, other)
  redis.call('HSET', d, total, bumped(got[1]), other, bumped(was))
  if not was then
    budgetNote(P, string.sub(d, 1, -2), 'deprecations', 'bd', DEPRECATION_OVERFLOW_BYTES)
    return 'overflow'
  end
  return false
end

-- Counts a call of a deprecated operation (ARGV: base, operation, client key, now, most clients, prefix): see luaNote.
S.psNoteDeprecated = function(ARGV)
  return note(ARGV[6], ARGV[1] .. 'd', ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5]))
end
