-- ARGV: now. Queue-wide figures: {queued, waiting, in flight, parked, redeliveries, rejected dones}.
local c = redis.call('HMGET', COUNTERS, 'redeliveries', 'rejected')
return { readyCount(), redis.call('ZCARD', WAITING), redis.call('HLEN', INFLIGHT),
  redis.call('HLEN', PARKED), tonumber(c[1] or 0), tonumber(c[2] or 0) }
