--@include state
--@include placement
--@include items
-- Leases: expiry (redelivery or parking), the live lease of an item, its end.

-- Leases whose deadline passed: the item goes back to the head of the FIFO (at-least-once),
-- counted as a redelivery, or is parked once its leases expired more than maxExpiries times.
local function reapExpired(maxExpiries)
  local expired = redis.call('ZRANGEBYSCORE', LEASES, '-inf', now, 'LIMIT', 0, 100)
  for _, item in ipairs(expired) do
    redis.call('ZREM', LEASES, item)
    redis.call('HDEL', INFLIGHT, item)
    redis.call('HINCRBY', COUNTERS, 'redeliveries', 1)
    local times = redis.call('HINCRBY', EXPIRIES, item, 1)
    existing[EXPIRIES] = true
    if maxExpiries >= 0 and times > maxExpiries then
      redis.call('HDEL', DIRTY, item)
      redis.call('HDEL', EXPIRIES, item)
      forgetAttributes({ item })
      park(item, 'lease expired ' .. times .. ' times in a row')
    else
      redis.call('HSETNX', DIRTY, item, int(now))
      enqueue(item, true)
    end
  end
end

-- A lease as INFLIGHT holds it, "token holder since deadline" (none of the four has a space):
-- where its three spaces are. Found with plain searches, as a done reads one lease per item: a
-- pattern with four captures cost a batch of dones several times more (docs/benchmarks.md).
local function spacesOf(v)
  local a = string.find(v, ' ', 1, true)
  local b = string.find(v, ' ', a + 1, true)
  return a, b, string.find(v, ' ', b + 1, true)
end

-- A lease's four fields.
local function parseLease(v)
  local a, b, c = spacesOf(v)
  return string.sub(v, 1, a - 1), string.sub(v, a + 1, b - 1), string.sub(v, b + 1, c - 1), string.sub(v, c + 1)
end

-- A lease's token and deadline only (a done's question), without making the other two fields.
local function tokenAndDeadline(v)
  local a, _, c = spacesOf(v)
  return string.sub(v, 1, a - 1), string.sub(v, c + 1)
end

-- The token of the item's live lease, with its holder and grant time; nil when the item is not
-- in flight or its lease has expired (even if no get has reaped it yet).
local function leaseOf(item)
  local v = redis.call('HGET', INFLIGHT, item)
  if not v then
    return nil
  end
  local token, holder, since, deadline = parseLease(v)
  if tonumber(deadline) <= now then
    return nil
  end
  return token, holder, since
end

local function endLease(item)
  redis.call('HDEL', INFLIGHT, item)
  redis.call('ZREM', LEASES, item)
end

-- Microseconds until the first member of a sorted set is due, or nil when it is empty.
local function untilFirst(key)
  local first = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  if #first > 0 then
    return math.max(0, tonumber(first[2]) - now)
  end
end

-- Microseconds until the earliest waiting item is ready or lease expires; -1 when neither exists.
-- Most queues have no waiting items, and the absence of their key is often known already.
local function nextEvent()
  local waiting = exists(WAITING) and untilFirst(WAITING)
  local lease = untilFirst(LEASES)
  if waiting and lease then
    return math.min(waiting, lease)
  end
  return waiting or lease or -1
end
