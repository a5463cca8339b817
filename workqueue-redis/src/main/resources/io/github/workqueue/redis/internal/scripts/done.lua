-- ARGV: now, item, token, how long an ended lease is remembered (microseconds). Ends the lease if
-- the token is the live one (fencing): the item runs again if it was added while in flight.
-- A repeat of an accepted done (a retry whose first reply was lost) is accepted again.
-- Returns 1, or 0 when the lease was not this token's.
local ended = ARGV[2] .. ' ' .. ARGV[3]
redis.call('ZREMRANGEBYSCORE', ENDED, '-inf', '(' .. int(now - tonumber(ARGV[4])))
local token = leaseOf(ARGV[2])
if token ~= ARGV[3] then
  if redis.call('ZSCORE', ENDED, ended) then
    return 1
  end
  redis.call('HINCRBY', COUNTERS, 'rejected', 1)
  return 0
end
endLease(ARGV[2])
redis.call('ZADD', ENDED, int(now), ended)
redis.call('HDEL', EXPIRIES, ARGV[2])
if redis.call('SISMEMBER', DIRTY, ARGV[2]) == 1 then
  enqueue(ARGV[2], false)
end
return 1
