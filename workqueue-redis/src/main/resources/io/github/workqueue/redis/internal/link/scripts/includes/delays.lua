--@include state
--@include placement
--@include items
-- Waiting items: addAfter and their promotion when due.

-- Moves due waiting items to the FIFO in ready-time order, ties in insertion order.
local function promoteDue()
  if not exists(WAITING) then
    return
  end
  local due = redis.call('ZRANGEBYSCORE', WAITING, '-inf', now, 'WITHSCORES', 'LIMIT', 0, 1000)
  if #due == 0 then
    return
  end
  local entries = {}
  for i = 1, #due, 2 do
    local item = due[i]
    entries[#entries + 1] = { item = item, ready = tonumber(due[i + 1]), seq = tonumber(redis.call('HGET', ORDER, item) or 0) }
  end
  table.sort(entries, function(a, b)
    if a.ready ~= b.ready then
      return a.ready < b.ready
    end
    return a.seq < b.seq
  end)
  for _, e in ipairs(entries) do
    redis.call('ZREM', WAITING, e.item)
    redis.call('HDEL', ORDER, e.item)
    markDirty(e.item)
  end
end

-- One waiting entry per item: the earliest ready time wins; a delay of zero or less is add.
local function addAfter(item, delay)
  if delay <= 0 then
    return addNow(item)
  end
  local ready = now + delay
  local current = redis.call('ZSCORE', WAITING, item)
  if current and tonumber(current) <= ready then
    return 0
  end
  redis.call('ZADD', WAITING, int(ready), item)
  existing[WAITING] = true
  if not current then
    redis.call('HSET', ORDER, item, redis.call('HINCRBY', COUNTERS, 'order', 1))
  end
  if redis.call('ZRANGE', WAITING, 0, 0)[1] == item then
    wake() -- a blocked getter recomputes how long to wait
  end
  return 1
end
