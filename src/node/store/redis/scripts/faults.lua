-- What a rule costs (rulesCost, costs.ts): RULE_BYTES, or what the hash `fc` holds for it (a rule
-- that holds a timeline: its text besides).
local function ruleCost(b, id)
  return tonumber(redis.call('HGET', b .. 'fc', id) or RULE_BYTES)
end
-- Moves what the session is charged for rules by `grow` (never below 0: the start world's rules are
-- charged nothing), or refuses a growth beyond limit, changing nothing.
local function ruleResize(P, b, grow, limit)
  local had = redis.call('HMGET', b .. 'm', 'bp', 'br')
  local rules = math.max(0, tonumber(had[2] or '0') + grow)
  return budgetResize(P, b, tonumber(had[1] or '0'), rules, limit, 'rules')
end

-- The operation a rule that holds a timeline matches on (its match line's first line: ruleMatch,
-- rule-target.ts): none, so that it is only ever a timeline.
local TIMELINE = '~timeline'

-- The JSON of the rules `ids` (those that hold timelines), appended to `out`, in their order.
local function timelineJson(b, ids, out)
  for _, id in ipairs(ids) do out[#out + 1] = redis.call('HGET', b .. 'fj', id) end
  return out
end

-- A rule removed gives back its cost, as far as the session was charged for rules.
local function removeRule(b, id, P)
  if redis.call('LREM', b .. 'f', 0, id) == 0 then return 0 end
  local cost = ruleCost(b, id)
  redis.call('HDEL', b .. 'fj', id)
  redis.call('HDEL', b .. 'fm', id)
  redis.call('HDEL', b .. 'fr', id)
  redis.call('HDEL', b .. 'fc', id)
  local name = redis.call('HGET', b .. 'fn', 'i:' .. id)
  if name then redis.call('HDEL', b .. 'fn', 'i:' .. id, 'n:' .. name) end
  ruleResize(P, b, -cost, -1)
  return 1
end

-- The first rule that applies (ARGV: base, operation, petId as sent, '1' when
-- there is a petId, prefix, '1' when the request may be held, then the request's facts:
-- see rule-match.ts): matched on operation and petId, then on every fact its `when`
-- requires being among the request's, then a draw for a rule with a probability below 1,
-- counted down and removed at zero, in one change; a hang or drip rule when the request may
-- not be held is answered uncounted. Answers { rule JSON, remaining or '' }; else, when rules
-- hold timelines, { '', their JSON… } (what the request asks next: timeline-take.ts), so that a
-- request in a timeline's session makes no round trip for them; else nil.
S.psTakeFault = function(ARGV)
  local b, op, petId, hasPetId, mayHold = ARGV[1], ARGV[2], ARGV[3], ARGV[4] == '1', ARGV[6] == '1'
  local offered
  local function offers(fact)
    if not offered then
      offered = {}
      for i = 7, #ARGV do offered[ARGV[i]] = true end
    end
    return offered[fact] == true
  end
  local timelines = {}
  for _, id in ipairs(redis.call('LRANGE', b .. 'f', 0, -1)) do
    local rop, rpet, rprob, rwhen = string.match(redis.call('HGET', b .. 'fm', id), '^([^\n]*)\n([^\n]*)\n([^\n]*)\n?(.*)$')
    if rop == TIMELINE then timelines[#timelines + 1] = id end
    local applies = rop == '' or rop == op
    if applies and rpet ~= '' then applies = op == 'getPet' and hasPetId and petId == rpet end
    if applies and rwhen ~= '' then
      for fact in string.gmatch(rwhen, '[^\n]+') do
        if not offers(fact) then
          applies = false
          break
        end
      end
    end
    if applies and rprob ~= '' then
      local p = tonumber(rprob)
      if p < 1 then
        local r = rngLoad(b .. 'm')
        applies = rngFloat(r) < p
        rngSave(b .. 'm', r)
      end
    end
    if applies then
      local json = redis.call('HGET', b .. 'fj', id)
      local remaining = ''
      -- A rule that would hold the request, when it may hold none (its tenant's quota): not counted.
      if not mayHold then
        local fault = cjson.decode(json).fault
        if fault == 'hang' or fault == 'drip' then
          return { json, redis.call('HGET', b .. 'fr', id) or '' }
        end
      end
      if redis.call('HEXISTS', b .. 'fr', id) == 1 then
        local left = redis.call('HINCRBY', b .. 'fr', id, -1)
        remaining = fmt(left)
        if left <= 0 then removeRule(b, id, ARGV[5]) end
      end
      return { json, remaining }
    end
  end
  if #timelines == 0 then return false end
  return timelineJson(b, timelines, { '' })
end

-- Adds a rule (ARGV: base, the JSON after `"id":N`, match line, times or '', most rules, prefix,
-- the budget's state share or -1): its id, false at the cap, or a refusal of the budget (luaBudget).
S.psAddFault = function(ARGV)
  local b = ARGV[1]
  if redis.call('LLEN', b .. 'f') >= tonumber(ARGV[5]) then return false end
  local refused = budgetGrow(ARGV[6], b, 'rules', RULE_BYTES, tonumber(ARGV[7]))
  if refused then return refused end
  local id = redis.call('HGET', b .. 'm', 'nf')
  redis.call('HSET', b .. 'm', 'nf', fmt(tonumber(id) + 1))
  redis.call('RPUSH', b .. 'f', id)
  redis.call('HSET', b .. 'fj', id, '{"id":' .. id .. ARGV[2])
  redis.call('HSET', b .. 'fm', id, ARGV[3])
  if ARGV[4] ~= '' then redis.call('HSET', b .. 'fr', id, ARGV[4]) end
  return id
end

-- Sets the rule of a name (ARGV: base, name, the JSON after `"id":N`, match
-- line, times or '', most rules, prefix, the budget's state share or -1, the
-- rule's cost): replaced in place (id and place kept, remaining restarted from
-- times), else added under the next id. Answers { id, 1 when created else 0 },
-- false at the cap, or a refusal of the budget (luaBudget; a replace costs what
-- it holds more than the rule it replaces). One script, so that two replicas
-- PUTting one name leave one rule.
S.psPutFault = function(ARGV)
  local b, name, cost = ARGV[1], ARGV[2], tonumber(ARGV[9])
  local id = redis.call('HGET', b .. 'fn', 'n:' .. name)
  local created = 0
  if not id then
    if redis.call('LLEN', b .. 'f') >= tonumber(ARGV[6]) then return false end
    local refused = ruleResize(ARGV[7], b, cost, tonumber(ARGV[8]))
    if refused then return refused end
    id = redis.call('HGET', b .. 'm', 'nf')
    redis.call('HSET', b .. 'm', 'nf', fmt(tonumber(id) + 1))
    redis.call('RPUSH', b .. 'f', id)
    redis.call('HSET', b .. 'fn', 'n:' .. name, id, 'i:' .. id, name)
    created = 1
  else
    local refused = ruleResize(ARGV[7], b, cost - ruleCost(b, id), tonumber(ARGV[8]))
    if refused then return refused end
  end
  if cost == RULE_BYTES then redis.call('HDEL', b .. 'fc', id) else redis.call('HSET', b .. 'fc', id, fmt(cost)) end
  redis.call('HSET', b .. 'fj', id, '{"id":' .. id .. ARGV[3])
  redis.call('HSET', b .. 'fm', id, ARGV[4])
  if ARGV[5] ~= '' then redis.call('HSET', b .. 'fr', id, ARGV[5]) else redis.call('HDEL', b .. 'fr', id) end
  return { id, created }
end

-- Removes the rule of a name (ARGV: base, name, prefix): 1, or 0 when there is none.
S.psRemoveNamedFault = function(ARGV)
  local id = redis.call('HGET', ARGV[1] .. 'fn', 'n:' .. ARGV[2])
  if not id then return 0 end
  return removeRule(ARGV[1], id, ARGV[3])
end

-- The rules in creation order (ARGV: base): JSON, remaining or '' for each.
S.psListFaults = function(ARGV)
  local b = ARGV[1]
  local out = {}
  for _, id in ipairs(redis.call('LRANGE', b .. 'f', 0, -1)) do
    out[#out + 1] = redis.call('HGET', b .. 'fj', id)
    out[#out + 1] = redis.call('HGET', b .. 'fr', id) or ''
  end
  return out
end

-- Removes a rule (ARGV: base, id, prefix): 1, or 0 when there is none.
S.psRemoveFault = function(ARGV)
  return removeRule(ARGV[1], ARGV[2], ARGV[3])
end

-- Removes every rule (ARGV: base, prefix): what they were charged goes back.
S.psClearFaults = function(ARGV)
  local b = ARGV[1]
  redis.call('DEL', b .. 'f', b .. 'fj', b .. 'fm', b .. 'fr', b .. 'fn', b .. 'fc')
  budgetResize(ARGV[2], b, tonumber(redis.call('HGET', b .. 'm', 'bp') or '0'), 0, -1, 'rules')
  return 1
end

-- The rules that hold timelines (ARGV: base): their JSON, in creation order (see timeline-phase.ts).
S.psTimelineRules = function(ARGV)
  local b = ARGV[1]
  local ids = {}
  for _, id in ipairs(redis.call('LRANGE', b .. 'f', 0, -1)) do
    if string.match(redis.call('HGET', b .. 'fm', id), '^[^\n]*') == TIMELINE then ids[#ids + 1] = id end
  end
  return timelineJson(b, ids, {})
end

-- Counts one request of a timeline's phase (ARGV: base, timeline name, phase key): its count, 1 for
-- the first; a new phase key starts again. One count per timeline, in the hash `tc`.
S.psPhaseCount = function(ARGV)
  local b, name, key = ARGV[1], ARGV[2], ARGV[3]
  if redis.call('HGET', b .. 'tc', 'k:' .. name) ~= key then
    redis.call('HSET', b .. 'tc', 'k:' .. name, key, 'c:' .. name, '1')
    return 1
  end
  return redis.call('HINCRBY', b .. 'tc', 'c:' .. name, 1)
end
