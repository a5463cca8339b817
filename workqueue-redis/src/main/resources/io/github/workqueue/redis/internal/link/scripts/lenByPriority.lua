--@include delays
-- ARGV: now. Ready items per priority: {priority, count, ...}, in no particular order. The
-- waiting items whose time has come are promoted first.
promoteDue()
endScript()
local result = {}
if exists(LEVELS) then
  local counts = redis.call('HGETALL', COUNT)
  for i = 1, #counts, 2 do
    result[#result + 1] = tonumber(counts[i])
    result[#result + 1] = tonumber(counts[i + 1])
  end
elseif exists(READY) then
  -- One score per priority: from the lowest score up, each one's count, then the next above it.
  local above = '-inf'
  while true do
    local first = redis.call('ZRANGEBYSCORE', READY, above, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
    if #first == 0 then
      break
    end
    local score = first[2]
    result[#result + 1] = 0 - tonumber(score)
    result[#result + 1] = redis.call('ZCOUNT', READY, score, score)
    above = '(' .. score
  end
else
  local length = redis.call('LLEN', QUEUE)
  if length > 0 then
    result = { 0, length }
  end
end
return result
