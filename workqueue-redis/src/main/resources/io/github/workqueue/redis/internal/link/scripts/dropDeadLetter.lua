-- ARGV: now, item. Forgets a dead letter; returns 1 if there was one.
local DEAD, DEAD_TIMES = QUEUE .. ':dead', QUEUE .. ':dead-times'
redis.call('ZREM', DEAD_TIMES, ARGV[2])
return redis.call('HDEL', DEAD, ARGV[2])
