-- ARGV: now, item, token. Ends the lease if the token is the live one (fencing): the item runs
-- again if it was added while in flight. Returns 1, or 0 when the lease was not this token's.
local token = leaseOf(ARGV[2])
if token ~= ARGV[3] then
  redis.call('HINCRBY', COUNTERS, 'rejected', 1)
  return 0
end
endLease(ARGV[2])
redis.call('HDEL', EXPIRIES, ARGV[2])
if redis.call('SISMEMBER', DIRTY, ARGV[2]) == 1 then
  enqueue(ARGV[2], false)
end
return 1
