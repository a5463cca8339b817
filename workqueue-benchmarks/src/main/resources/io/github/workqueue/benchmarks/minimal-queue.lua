#!lua name=minimal_queue
-- The yardstick of issue 39: a queue with client-go's guarantees and nothing else, as few
-- commands as they allow, a whole batch per call. KEYS: queue (list), dirty (hash item -> 1),
-- processing (hash item -> token), leases (zset item -> deadline), tokens (counter).
-- Dedup while queued (an item dirty is not pushed again), FIFO, one holder (an item in
-- processing is not pushed by an add; it is pushed again by its done if it became dirty
-- meanwhile), a token per lease and a done that checks it. Not here: delays, limiters,
-- priorities, fairness, parking, reaping expired leases, metrics.

-- ARGV: items. Returns how many became dirty.
redis.register_function('minimal_add', function(keys, items)
  local wasDirty = redis.call('HMGET', keys[2], unpack(items))
  local held = redis.call('HMGET', keys[3], unpack(items))
  local mark, push, seen = {}, {}, {}
  for i, item in ipairs(items) do
    if not wasDirty[i] and not seen[item] then
      seen[item] = true
      mark[#mark + 1] = item
      mark[#mark + 1] = '1'
      if not held[i] then
        push[#push + 1] = item
      end
    end
  end
  if #mark > 0 then
    redis.call('HSET', keys[2], unpack(mark))
  end
  if #push > 0 then
    redis.call('RPUSH', keys[1], unpack(push))
  end
  return #mark / 2
end)

-- ARGV: now and lease in microseconds, leases wanted, then (item, token) pairs of dones.
-- Returns {1 or 0 per done (accepted or not), then item, token per lease granted}.
redis.register_function('minimal_cycle', function(keys, argv)
  local now, lease, wanted = tonumber(argv[1]), tonumber(argv[2]), tonumber(argv[3])
  local result = {}
  if #argv > 3 then
    local items, tokens = {}, {}
    for i = 4, #argv, 2 do
      items[#items + 1] = argv[i]
      tokens[#tokens + 1] = argv[i + 1]
    end
    local held = redis.call('HMGET', keys[3], unpack(items))
    local dirty = redis.call('HMGET', keys[2], unpack(items))
    local ended, again = {}, {}
    for i, item in ipairs(items) do
      if held[i] == tokens[i] then
        ended[#ended + 1] = item
        if dirty[i] then
          again[#again + 1] = item
        end
        result[#result + 1] = 1
      else
        result[#result + 1] = 0
      end
    end
    if #ended > 0 then
      redis.call('HDEL', keys[3], unpack(ended))
      redis.call('ZREM', keys[4], unpack(ended))
    end
    if #again > 0 then
      redis.call('RPUSH', keys[1], unpack(again))
    end
  end
  if wanted > 0 then
    local items = redis.call('LPOP', keys[1], wanted)
    if items then
      redis.call('HDEL', keys[2], unpack(items))
      local last = redis.call('INCRBY', keys[5], #items)
      local holds, deadlines = {}, {}
      for i, item in ipairs(items) do
        local token = tostring(last - #items + i)
        holds[#holds + 1] = item
        holds[#holds + 1] = token
        deadlines[#deadlines + 1] = now + lease
        deadlines[#deadlines + 1] = item
        result[#result + 1] = item
        result[#result + 1] = token
      end
      redis.call('HSET', keys[3], unpack(holds))
      redis.call('ZADD', keys[4], unpack(deadlines))
    end
  end
  return result
end)
