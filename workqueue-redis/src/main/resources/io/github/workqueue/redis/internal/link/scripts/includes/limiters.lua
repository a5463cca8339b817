--@include state
-- Rate limiters of the core's kinds over state shared by every instance.

-- A token bucket's reservation: takes a token (going into debt when there is none) and
-- returns how long to wait for it.
local function reserveToken(s)
  local tokens, last = s.burst, now
  local state = redis.call('HGET', BUCKETS, s.id)
  if state then
    local t, l = string.match(state, '^(%S+) (%S+)$')
    tokens, last = tonumber(t), tonumber(l)
  end
  tokens = math.min(s.burst, tokens + math.max(0, now - last) * s.qps / 1000000) - 1
  redis.call('HSET', BUCKETS, s.id, string.format('%.17g', tokens) .. ' ' .. int(math.max(now, last)))
  if tokens >= 0 then
    return 0
  end
  return math.ceil(-tokens * 1000000 / s.qps)
end

-- Reserves a token of every bucket of a limiter: {bucket id -> delay}. A queue of several
-- shards keeps its buckets in its first shard and passes their delays to the item's shard.
local function reserveBuckets(spec, reserved)
  if spec.type == 'bucket' then
    reserved[spec.id] = reserveToken(spec)
  elseif spec.type == 'maxOf' then
    for _, inner in ipairs(spec.of) do
      reserveBuckets(inner, reserved)
    end
  elseif spec.type == 'withMaxWait' then
    reserveBuckets(spec.of, reserved)
  end
  return reserved
end

-- client-go's limiters over state shared by every instance: one failure count per item
-- (every per-item limiter counts each call, so they share it) and one bucket per bucket
-- limiter, reserved here or, when given, already reserved in the queue's first shard.
local function when(spec, item, reserved)
  local failures = redis.call('HINCRBY', FAILURES, item, 1)
  local function delayOf(s)
    if s.type == 'exponential' then
      local exponent = failures - 1
      if exponent >= 63 then
        return s.max
      end
      return math.min(s.base * (2 ^ exponent), s.max)
    elseif s.type == 'fastSlow' then
      if failures <= s.maxFast then
        return s.fast
      end
      return s.slow
    elseif s.type == 'bucket' then
      if reserved then
        return reserved[s.id]
      end
      return reserveToken(s)
    elseif s.type == 'maxOf' then
      local longest = 0
      for _, inner in ipairs(s.of) do
        longest = math.max(longest, delayOf(inner))
      end
      return longest
    elseif s.type == 'withMaxWait' then
      return math.min(delayOf(s.of), s.max)
    end
    error('unknown limiter type ' .. tostring(s.type))
  end
  return delayOf(spec)
end
