-- Counting calls of a deprecated operation: `note(P, d, op, key, calls, first, last, most
-- clients)` counts `calls` calls of one client, the first at `first` and the last at `last`, and
-- answers 'client' for a client's first calls, 'overflow' for the first beyond the cap, else false.
-- Counters are `calls,first,last[,order]` in the hash `d`: `op\nt` (all), `op\no` (beyond the cap),
-- `op\nn` (clients), `op\nc\n<key>` (one client). A new record is counted in the budget (never
-- refused), as in memory (costs.ts). Needs luaFormat, luaKeep and luaBudget.
local function note(P, d, op, key, calls, first, last, maxClients)
  local made = fmt(calls) .. ',' .. first .. ',' .. last
  -- A counter's next value: the calls added, the first kept, the last now, the rest (order) kept.
  local function bumped(v)
    if not v then return made end
    local had, kept, _, rest = string.match(v, '^(%d+),([^,]+),([^,]+)(.*)$')
    return fmt(tonumber(had) + calls) .. ',' .. kept .. ',' .. last .. rest
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
    redis.call('HSET', d, total, bumped(got[1]), field, made .. ',' .. fmt(clients), count, fmt(clients + 1))
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

-- Counts the calls of deprecated operations a replica gathered over one turn for one session
-- (deprecation-batch.ts), one change (ARGV: base, the pool's prefix, most clients, number of
-- counts, then each one's operation, client key, calls, first and last time): answers, per count,
-- what note answers ('' for false).
S.psNoteDeprecatedCalls = function(ARGV)
  local d, P, most = ARGV[1] .. 'd', ARGV[2], tonumber(ARGV[3])
  local codes = {}
  for k = 1, tonumber(ARGV[4]) do
    local at = 5 * k
    codes[k] = note(P, d, ARGV[at], ARGV[at + 1], tonumber(ARGV[at + 2]), ARGV[at + 3], ARGV[at + 4], most) or ''
  end
  return codes
end
