--@include placement
-- ARGV: now, then "since by" (epoch milliseconds, who) to pause this shard queue-wide, or
-- empty to resume it. While paused, batch.lua grants no lease to any instance (adds, dones
-- and the reaping of expired leases go on). Resuming leaves a wake-up hint, so that a waiting
-- instance asks at once. Returns 1 if the state changed (a pause keeps the first one's
-- "since by").
if ARGV[2] ~= '' then
  return redis.call('HSETNX', COUNTERS, 'paused', ARGV[2])
end
local removed = redis.call('HDEL', COUNTERS, 'paused')
if removed == 1 then
  wake()
end
return removed
