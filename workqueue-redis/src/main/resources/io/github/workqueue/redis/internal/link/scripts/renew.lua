--@include leases
-- ARGV: now, lease in microseconds, then item, token pairs. Extends each lease still held by its
-- token; returns the new deadline followed by 1 (renewed) or 0 (lost) per pair, in order.
local deadline = now + tonumber(ARGV[2])
local result = { deadline }
for i = 3, #ARGV, 2 do
  local token, holder, since = leaseOf(ARGV[i])
  if token == ARGV[i + 1] then
    redis.call('ZADD', LEASES, 'XX', int(deadline), ARGV[i])
    redis.call('HSET', INFLIGHT, ARGV[i], token .. ' ' .. holder .. ' ' .. since .. ' ' .. int(deadline))
    result[#result + 1] = 1
  else
    result[#result + 1] = 0
  end
end
return result
