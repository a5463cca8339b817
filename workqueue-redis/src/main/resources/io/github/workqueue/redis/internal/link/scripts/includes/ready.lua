--@include state
-- The READY set: ready items of several priorities, none with fairness keys.

-- The sequences of n items becoming ready, taken together: a function of i (1 to n) giving the
-- i-th item's. At the tail they increase; at the head each one is before the last, as if the
-- items were queued one by one.
local function sequences(n, front)
  local first = redis.call('HINCRBY', COUNTERS, front and 'front' or 'ready', n) - n
  if front then
    return function(i) return -(first + i) end
  end
  return function(i) return first + i end
end

-- Sequences in READY are written as sixteen digits after adding this, 2^52 (exact in a double,
-- as are all the sums with the sequences a queue can reach).
local SEQ_OFFSET = 4503599627370496

local function seqCode(sequence)
  return string.format('%016d', sequence + SEQ_OFFSET) -- '%d': see int()
end

-- Queues items without keys in READY at their priorities (prios[i], nil for 0), at the tail or
-- the head of each.
local function readyAddAll(items, prios, front)
  local sequenceOf = sequences(#items, front)
  local members, codes = {}, {}
  -- Each priority's score as text, made once: a number given to redis.call is formatted with
  -- '%.14g', which costs several times '%d' (see int()).
  local scores = {}
  for i, item in ipairs(items) do
    local code = seqCode(sequenceOf(i))
    local priority = prios[i] or 0
    local score = scores[priority]
    if not score then
      score = int(0 - tonumber(priority))
      scores[priority] = score
    end
    members[#members + 1] = score
    members[#members + 1] = code .. item
    codes[#codes + 1] = item
    codes[#codes + 1] = code
  end
  for from = 1, #members, 2000 do
    local to = math.min(from + 1999, #members)
    redis.call('ZADD', READY, unpack(members, from, to))
    redis.call('HSET', SEQ, unpack(codes, from, to))
  end
  existing[READY] = true
end

-- Moves the FIFO (priority 0, no keys) into READY, in its order.
local function useReady()
  if exists(READY) then
    return
  end
  local items = redis.call('LRANGE', QUEUE, 0, -1)
  if #items > 0 then
    redis.call('DEL', QUEUE)
    readyAddAll(items, {}, false)
  end
end

-- Takes up to count items from READY: the items and their priorities.
local function readyPop(count)
  local popped = redis.call('ZPOPMIN', READY, count)
  local items, prios, numbers = {}, {}, {}
  for i = 1, #popped, 2 do
    items[#items + 1] = string.sub(popped[i], 17)
    prios[#prios + 1] = 0 - numberIn(numbers, popped[i + 1])
  end
  if #items > 0 then
    redis.call('HDEL', SEQ, unpack(items))
  end
  if #items < count then
    existing[READY] = false
  else
    existing[READY] = nil
  end
  return items, prios
end
