--@include state
--@include fairness
--@include placement
-- An item's life outside leases: dirty (added, dedup while dirty), raised, parked.

-- client-go's add: dedup while dirty; an item in flight runs again after done.
-- Returns 1 when the add made the item dirty, 0 when it joined an earlier add.
local function markDirty(item)
  if redis.call('HSETNX', DIRTY, item, int(now)) == 0 then
    return 0
  end
  if exists(PARKED) then
    redis.call('HDEL', PARKED, item)
  end
  if redis.call('HEXISTS', INFLIGHT, item) == 0 then
    enqueue(item, false)
  end
  return 1
end

-- add supersedes a waiting entry: the item is ready now.
local function addNow(item)
  if exists(WAITING) and redis.call('ZREM', WAITING, item) == 1 then
    redis.call('HDEL', ORDER, item)
  end
  return markDirty(item)
end

local function park(item, reason)
  redis.call('HSET', PARKED, item, reason)
  existing[PARKED] = true
  redis.call('HINCRBY', COUNTERS, 'parked', 1)
end

-- A plain add (at priority 0) of an item present at a lower priority raises it to 0.
local function raiseToZero(item)
  if exists(PRIO) then
    local priority = redis.call('HGET', PRIO, item)
    if priority and tonumber(priority) < 0 then
      levels().prioritize(item, 0, '')
    end
  end
end
