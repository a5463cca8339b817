-- ARGV: now, limit. The newest dead letters: {total, then item, record pairs}.
local DEAD, DEAD_TIMES = QUEUE .. ':dead', QUEUE .. ':dead-times'
local items = redis.call('ZREVRANGE', DEAD_TIMES, 0, tonumber(ARGV[2]) - 1)
local result = { redis.call('ZCARD', DEAD_TIMES) }
if #items == 0 then
  return result
end
local records = redis.call('HMGET', DEAD, unpack(items))
for i, item in ipairs(items) do
  result[#result + 1] = item
  result[#result + 1] = records[i] or '{}'
end
return result
