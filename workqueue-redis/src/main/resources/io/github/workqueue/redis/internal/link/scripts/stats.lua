--@include delays
-- ARGV: now. Queue-wide figures: {queued, waiting, in flight, parked, redeliveries, rejected dones,
-- dead letters given up (kept in the first shard's keys only)}.
-- The waiting items whose time has come are promoted first: they are queued, no longer waiting.
promoteDue()
endScript()
local c = redis.call('HMGET', COUNTERS, 'redeliveries', 'rejected')
return { readyCount(), redis.call('ZCARD', WAITING), redis.call('HLEN', INFLIGHT),
  redis.call('HLEN', PARKED), tonumber(c[1] or 0), tonumber(c[2] or 0),
  redis.call('ZCARD', QUEUE .. ':dead-times') }
