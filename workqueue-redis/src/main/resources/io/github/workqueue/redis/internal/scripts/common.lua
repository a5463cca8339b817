-- Shared by every script of a Redis queue. KEYS (all in one hash slot):
--   1 queue     list    FIFO of encoded items (every one is dirty and not in flight)
--   2 dirty     hash    item -> when it became dirty (added and not yet taken; queue latency)
--   3 inflight  hash    item -> "token holder since deadline" of its lease (until done or reaped)
--   4 leases    zset    item -> lease deadline (microseconds of Redis time)
--   5 waiting   zset    item -> ready time (microseconds)
--   6 order     hash    item -> insertion sequence of its waiting entry (ties)
--   7 failures  hash    item -> failed attempts since the last forget
--   8 expiries  hash    item -> leases expired in a row (reset by done)
--   9 parked    hash    item -> why it was parked
--  10 buckets   hash    limiter index -> "tokens last"
--  11 wake      list    wake-up hints for blocked getters (never state)
--  12 counters  hash    sequence numbers and queue-wide totals
--  13 ended     hash    item -> token of its last lease ended by done (a repeated done is accepted)
--  14 endedOld  hash    the same for the window before: a done is remembered for one to two
--                       windows, then dropped with the whole hash (the window is in counters)
-- ARGV[1] is the time to use in microseconds, or empty for Redis's TIME.
local QUEUE, DIRTY, INFLIGHT, LEASES, WAITING, ORDER, FAILURES, EXPIRIES, PARKED, BUCKETS, WAKE, COUNTERS, ENDED =
  KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10], KEYS[11], KEYS[12], KEYS[13]
local ENDED_OLD = KEYS[14]

local now
if ARGV[1] ~= '' then
  now = tonumber(ARGV[1])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end

local function int(n)
  return string.format('%.0f', n)
end

local WAKE_HINTS = 64

-- Whether a key exists, asked once per script and then kept up to date by the functions
-- below that write it: most items are never waiting, parked or expired, so the commands that
-- would clean them up are skipped while their key is absent.
local present = {}
local function exists(key)
  if present[key] == nil then
    present[key] = redis.call('EXISTS', key) == 1
  end
  return present[key]
end

-- Items that entered the FIFO during this script: finish() wakes getters once for all.
local queued = 0

local function enqueue(item, front)
  if front then
    redis.call('LPUSH', QUEUE, item)
  else
    redis.call('RPUSH', QUEUE, item)
  end
  queued = queued + 1
end

-- Ends every script that queues items: one wake-up hint per item queued in it and still in
-- the FIFO (a getter that took it in the same script needs none), at most WAKE_HINTS in all.
local function finish()
  if queued == 0 then
    return
  end
  local hints = math.min(queued, redis.call('LLEN', QUEUE), WAKE_HINTS)
  if hints > 0 then
    local ones = {}
    for i = 1, hints do
      ones[i] = '1'
    end
    if redis.call('RPUSH', WAKE, unpack(ones)) > WAKE_HINTS then
      redis.call('LTRIM', WAKE, -WAKE_HINTS, -1)
    end
  end
end

local function wake()
  redis.call('RPUSH', WAKE, '1')
  redis.call('LTRIM', WAKE, -WAKE_HINTS, -1)
end

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

local function park(item, reason)
  redis.call('HSET', PARKED, item, reason)
  present[PARKED] = true
  redis.call('HINCRBY', COUNTERS, 'parked', 1)
end

-- Leases whose deadline passed: the item goes back to the head of the FIFO (at-least-once),
-- counted as a redelivery, or is parked once its leases expired more than maxExpiries times.
local function reapExpired(maxExpiries)
  local expired = redis.call('ZRANGEBYSCORE', LEASES, '-inf', now, 'LIMIT', 0, 100)
  for _, item in ipairs(expired) do
    redis.call('ZREM', LEASES, item)
    redis.call('HDEL', INFLIGHT, item)
    redis.call('HINCRBY', COUNTERS, 'redeliveries', 1)
    local times = redis.call('HINCRBY', EXPIRIES, item, 1)
    present[EXPIRIES] = true
    if maxExpiries >= 0 and times > maxExpiries then
      redis.call('HDEL', DIRTY, item)
      redis.call('HDEL', EXPIRIES, item)
      park(item, 'lease expired ' .. times .. ' times in a row')
    else
      redis.call('HSETNX', DIRTY, item, int(now))
      enqueue(item, true)
    end
  end
end

-- The token of the item's live lease, with its holder and grant time; nil when the item is not
-- in flight or its lease has expired (even if no get has reaped it yet).
local function parseLease(v)
  return string.match(v, '^(%S+) (%S+) (%S+) (%S+)$')
end

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

-- Microseconds until the earliest waiting item is ready or lease expires; -1 when neither exists.
local function nextEvent()
  local best = -1
  for _, key in ipairs({ WAITING, LEASES }) do
    local first = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    if #first > 0 then
      local d = math.max(0, tonumber(first[2]) - now)
      if best < 0 or d < best then
        best = d
      end
    end
  end
  return best
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
  present[WAITING] = true
  if not current then
    redis.call('HSET', ORDER, item, redis.call('HINCRBY', COUNTERS, 'order', 1))
  end
  if redis.call('ZRANGE', WAITING, 0, 0)[1] == item then
    wake() -- a blocked getter recomputes how long to wait
  end
  return 1
end

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
