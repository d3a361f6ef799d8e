-- Copying a world from one base to another (COPY … REPLACE), and dropping a session's keys.
local WORLD = WORLD_SUFFIXES
local ALL = SESSION_SUFFIXES
local PETS = PET_SUFFIXES
-- UNLINK, not DEL: a world of 100,000 pets is let go of by Redis' background thread, not inside the script.
local function copyWorld(from, to)
  for _, s in ipairs(WORLD) do
    redis.call('UNLINK', to .. s)
    if redis.call('EXISTS', from .. s) == 1 then redis.call('COPY', from .. s, to .. s) end
  end
end
local function dropKeys(b)
  for _, s in ipairs(ALL) do redis.call('UNLINK', b .. s) end
end
-- A command (ZADD, HSET, RPUSH) of key with items, a thousand at a time (pairs stay whole): unpack
-- spreads a bounded number of values.
local function callInChunks(command, key, items)
  for i = 1, #items, 1000 do
    redis.call(command, key, unpack(items, i, math.min(i + 999, #items)))
  end
end
-- w: { meta = {field, value, …}, pets = {{id, status, json}, …}, faults = {{id, json, match, remaining, name, cost}, …} }
local function writeWorld(b, w)
  for _, s in ipairs(WORLD) do redis.call('UNLINK', b .. s) end
  redis.call('HSET', b .. 'm', unpack(w.meta))
  local all, by = {}, { available = {}, pending = {}, sold = {} }
  for _, p in ipairs(w.pets) do
    all[#all + 1] = p[1]
    all[#all + 1] = p[3]
    local list = by[p[2]]
    if list then
      list[#list + 1] = p[1]
      list[#list + 1] = p[3]
    end
  end
  if #all > 0 then callInChunks('ZADD', b .. 'i', all) end
  for status, list in pairs(by) do
    if #list > 0 then callInChunks('ZADD', b .. 'i:' .. status, list) end
  end
  local ids, fj, fm, fr, fn, fc = {}, {}, {}, {}, {}, {}
  for _, f in ipairs(w.faults) do
    ids[#ids + 1] = f[1]
    fj[#fj + 1] = f[1]; fj[#fj + 1] = f[2]
    fm[#fm + 1] = f[1]; fm[#fm + 1] = f[3]
    if f[4] ~= '' then fr[#fr + 1] = f[1]; fr[#fr + 1] = f[4] end
    if f[6] ~= RULE_BYTES then fc[#fc + 1] = f[1]; fc[#fc + 1] = fmt(f[6]) end
    if f[5] ~= '' then
      fn[#fn + 1] = 'n:' .. f[5]; fn[#fn + 1] = f[1]
      fn[#fn + 1] = 'i:' .. f[1]; fn[#fn + 1] = f[5]
    end
  end
  callInChunks('RPUSH', b .. 'f', ids)
  if #fj > 0 then callInChunks('HSET', b .. 'fj', fj); callInChunks('HSET', b .. 'fm', fm) end
  if #fr > 0 then callInChunks('HSET', b .. 'fr', fr) end
  if #fn > 0 then callInChunks('HSET', b .. 'fn', fn) end
  if #fc > 0 then callInChunks('HSET', b .. 'fc', fc) end
end
-- What a request reads of its session up front, as one text (one string to decode, not six):
-- latency min and max, rate limit, clock mode and value, number of rules, its tenant (its pool,
-- luaBudget), '|' between, '' for none. Second: the mark of a session no selection has used since
-- it was made (psSession's `nw`, read in the same HMGET), or false.
local function metaOf(b)
  local meta = redis.call('HMGET', b .. 'm', 'lmin', 'lmax', 'rl', 'cm', 'cv', 'q', 'nw')
  local made = meta[7]
  for i = 1, 6 do meta[i] = meta[i] or '' end
  meta[7] = meta[6]
  meta[6] = redis.call('LLEN', b .. 'f')
  return table.concat(meta, '|'), made
end
