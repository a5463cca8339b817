-- ARGV: now. This shard's queue-wide pause, "since by", or false when it is not paused.
return redis.call('HGET', COUNTERS, 'paused')
