--@include leases
-- ARGV: now, item, token, reason. Parks an item its holder cannot process (it cannot be decoded).
if leaseOf(ARGV[2]) ~= ARGV[3] then
  return 0
end
endLease(ARGV[2])
redis.call('HDEL', DIRTY, ARGV[2])
forgetAttributes({ ARGV[2] })
park(ARGV[2], ARGV[4])
return 1
