-- ARGV: now. Ready items per priority: {priority, count, ...}, in no particular order.
if not exists(LEVELS) then
  local length = redis.call('LLEN', QUEUE)
  if length == 0 then
    return {}
  end
  return { 0, length }
end
local result = {}
local counts = redis.call('HGETALL', COUNT)
for i = 1, #counts, 2 do
  result[#result + 1] = tonumber(counts[i])
  result[#result + 1] = tonumber(counts[i + 1])
end
return result
