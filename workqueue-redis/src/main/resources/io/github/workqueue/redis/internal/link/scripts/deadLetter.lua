-- ARGV: now, item, record (JSON), when (epoch milliseconds), capacity. Keeps a dead letter:
-- an item its worker gave up, with why; past the capacity the oldest are dropped. Returns how
-- many were dropped.
local DEAD, DEAD_TIMES = QUEUE .. ':dead', QUEUE .. ':dead-times'
redis.call('HSET', DEAD, ARGV[2], ARGV[3])
redis.call('ZADD', DEAD_TIMES, ARGV[4], ARGV[2])
local over = redis.call('ZCARD', DEAD_TIMES) - tonumber(ARGV[5])
if over <= 0 then
  return 0
end
local oldest = redis.call('ZRANGE', DEAD_TIMES, 0, over - 1)
redis.call('HDEL', DEAD, unpack(oldest))
redis.call('ZREM', DEAD_TIMES, unpack(oldest))
return over
