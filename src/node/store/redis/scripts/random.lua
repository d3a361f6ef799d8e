-- The session's seeded generator in Lua: xoroshiro128+ and pure-rand's
-- uniformFloat64 and uniformInt, word for word (LuaBitOp's 32-bit operations
-- are JavaScript's), on the position the meta hash keeps (`rnd`: the four
-- int32 words of RandomState). Both stores therefore draw the same sequence
-- from the same position: a snapshot replays alike on either, and every
-- replica draws from the one position in Redis.
local function rngLoad(m)
  local r = {}
  for word in string.gmatch(redis.call('HGET', m, 'rnd'), '[^,]+') do r[#r + 1] = tonumber(word) end
  return r
end
local function rngSave(m, r)
  redis.call('HSET', m, 'rnd', string.format('%d,%d,%d,%d', r[1], r[2], r[3], r[4]))
end
-- r = { s01, s00, s11, s10 }, as pure-rand's getState
local function rngNext(r)
  local s01, s00, s11, s10 = r[1], r[2], r[3], r[4]
  local out = bit.tobit(s00 + s10)
  local a0 = bit.bxor(s10, s00)
  local a1 = bit.bxor(s11, s01)
  r[2] = bit.bxor(bit.lshift(s00, 24), bit.rshift(s01, 8), a0, bit.lshift(a0, 16))
  r[1] = bit.bxor(bit.lshift(s01, 24), bit.rshift(s00, 8), a1, bit.bor(bit.lshift(a1, 16), bit.rshift(a0, 16)))
  r[4] = bit.bxor(bit.lshift(a1, 5), bit.rshift(a0, 27))
  r[3] = bit.bxor(bit.lshift(a0, 5), bit.rshift(a1, 27))
  return out
end
local function rngFloat(r)
  local v1 = bit.band(rngNext(r), 67108863)
  local v2 = bit.band(rngNext(r), 134217727)
  return v1 * 1.4901161193847656e-8 + v2 * 1.1102230246251565e-16
end
local function rngInt(r, from, to)
  local size = to - from + 1
  local allowed = 4294967296
  if size > 2 then allowed = math.floor(4294967296 / size) * size end
  local v = rngNext(r) + 2147483648
  while v >= allowed do v = rngNext(r) + 2147483648 end
  return v % size + from
end
