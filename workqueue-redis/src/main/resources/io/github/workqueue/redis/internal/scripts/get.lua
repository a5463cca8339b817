-- ARGV: now, holder, lease in microseconds, most lease expiries in a row before parking (-1: never).
-- Returns {1, item, token, deadline, microseconds it was queued} with a lease,
-- or {0, microseconds until the next waiting item or lease deadline, -1 if none}.
reapExpired(tonumber(ARGV[4]))
promoteDue()
local item = redis.call('LPOP', QUEUE)
if not item then
  return { 0, nextEvent() }
end
redis.call('SREM', DIRTY, item)
-- Fencing tokens only move forward, even after Redis lost its last writes (the counter rolled
-- back): a token is at least the grant's time in microseconds, which a restart cannot undo.
local token = math.max(tonumber(redis.call('HGET', COUNTERS, 'tokens') or 0) + 1, now)
redis.call('HSET', COUNTERS, 'tokens', int(token))
redis.call('HSET', INFLIGHT, item, int(token) .. ' ' .. ARGV[2] .. ' ' .. int(now))
local deadline = now + tonumber(ARGV[3])
redis.call('ZADD', LEASES, int(deadline), item)
local enqueued = tonumber(redis.call('HGET', ENQUEUED, item) or now)
redis.call('HDEL', ENQUEUED, item)
return { 1, item, token, deadline, math.max(0, now - enqueued) }
