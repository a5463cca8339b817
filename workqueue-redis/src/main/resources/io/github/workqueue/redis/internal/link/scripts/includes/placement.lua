--@include state
--@include ready
--@include fairness
--@include servingOrder
-- Puts items that became ready where ready items are kept, at the tail (or, one by one, at the
-- head) of their priority; prios[i] and fair[i] are the item's fields of PRIO and FAIR (false or
-- nil when it has none).
local function placeAll(items, prios, fair, front)
  local n = #items
  if not exists(LEVELS) then
    local keyed, prioritized = false, false
    for i = 1, n do
      if fair[i] then
        keyed = true
        break
      end
      if prios[i] then
        prioritized = true
      end
    end
    if not keyed then
      if prioritized or exists(READY) then
        useReady()
        readyAddAll(items, prios, front)
      else
        redis.call(front and 'LPUSH' or 'RPUSH', QUEUE, unpack(items))
      end
      return
    end
    levels().useLevels()
  end
  local ops = levels()
  local sequenceOf = sequences(n, front)
  -- The items of one priority and keys go to one node, made ready for the first of them and
  -- found once per call (nodes[priority as read][keys as read]).
  local members, numbers, nodes = {}, {}, {}
  for i, item in ipairs(items) do
    local given, encoded = prios[i] or 0, fair[i] or ''
    local priority, byKeys = numberIn(numbers, given), nodes[given]
    if not byKeys then
      byKeys = {}
      nodes[given] = byKeys
    end
    local node = byKeys[encoded]
    if not node then
      node = ops.activate(priority, ops.keysOf(fair[i]))
      byKeys[encoded] = node
    end
    ops.gatherAt(members, node, priority, sequenceOf(i), item)
  end
  ops.fillLeaves(members)
end

settle = function()
  if passing then
    local held = passing
    passing = nil
    placeAll(held.items, held.prios, held.fair, false)
  end
end

-- Whether items becoming ready at the tail may start passing through the script (see passing):
-- they would go to READY or the trees (a priority or keys), and no other item is ready.
local function mayPass(prios, fair, n)
  for i = 1, n do
    if prios[i] or fair[i] then
      return not exists(LEVELS) and not exists(READY) and redis.call('EXISTS', QUEUE) == 0
    end
  end
  return false
end

-- What enqueueAll is told of items that are neither dirty, waiting nor in flight and were
-- given no priority or keys: they have none (PRIO and FAIR hold them for the items present
-- only). Made once, never written.
local NO_ATTRIBUTES = { prios = {}, fair = {} }

-- Queues items that became ready, at the tail (or, one by one, at the head) of their priority;
-- items at the tail may instead pass through the script (see passing). known, when given, holds
-- the items' fields of PRIO and FAIR as a caller that just wrote them knows them (prios and
-- fair, nil where none), and saves reading them back.
local function enqueueAll(items, front, known)
  local n = #items
  if n == 0 then
    return
  end
  queued = queued + n
  drained = false
  local prios, fair
  if known then
    prios, fair = known.prios, known.fair
  else
    prios = exists(PRIO) and redis.call('HMGET', PRIO, unpack(items)) or {}
    fair = exists(FAIR) and redis.call('HMGET', FAIR, unpack(items)) or {}
  end
  if front or (passing and #passing.items or 0) + n > passLimit then
    settle()
  elseif not passing and mayPass(prios, fair, n) then
    passing = { items = {}, prios = {}, fair = {} }
  end
  if passing then
    local at = #passing.items
    for i = 1, n do
      passing.items[at + i], passing.prios[at + i], passing.fair[at + i] = items[i], prios[i], fair[i]
    end
    return
  end
  placeAll(items, prios, fair, front)
end

local function enqueue(item, front)
  enqueueAll({ item }, front)
end

-- Takes up to count ready items, highest priority first; false when none (as LPOP). Also
-- returns the priority of each item, the level it came from (the FIFO's are all at 0).
local function takeReady(count)
  if passing then
    local held = passing
    passing = nil
    -- Never queued in Redis's keys, so no getter needs a wake-up hint for them.
    queued = queued - #held.items
    return serveAll(held.items, held.prios, held.fair)
  end
  if not exists(LEVELS) then
    if exists(READY) then
      return readyPop(count)
    end
    return redis.call('LPOP', QUEUE, count), {}
  end
  local items, prios = {}, {}
  local pop = levels().pop
  local top = nil
  while #items < count and exists(LEVELS) do
    if not top then
      top = tonumber(redis.call('ZREVRANGE', LEVELS, 0, 0)[1])
    end
    local taken = #items
    local emptied = pop(top, count - #items, items)
    for i = taken + 1, #items do
      prios[i] = top
    end
    if emptied then
      top = nil
    end
  end
  return items, prios
end

-- takeReady, noting when the take emptied the ready items (while items pass through the
-- script, they are the only ready ones).
local function popReady(count)
  local items, prios = takeReady(count)
  drained = not items or #items < count
  return items, prios
end

local function readyCount()
  if exists(LEVELS) then
    local total = pendingAll
    for _, count in ipairs(redis.call('HVALS', COUNT)) do
      total = total + tonumber(count)
    end
    return total
  end
  -- After a take from READY its existence is unknown: its size answers that too.
  if existing[READY] ~= false then
    local size = redis.call('ZCARD', READY)
    existing[READY] = size > 0
    if size > 0 then
      return size
    end
  end
  return redis.call('LLEN', QUEUE)
end

-- Writes the ready counts this script changed.
local function flushCounts()
  for priority, delta in pairs(pendingCount) do
    if delta ~= 0 and redis.call('HINCRBY', COUNT, priority, delta) <= 0 then
      redis.call('HDEL', COUNT, priority)
    end
  end
  pendingCount, pendingAll = {}, 0
end

-- Forgets the priority and keys of items that are no longer present.
local function forgetAttributes(items)
  if #items > 0 then
    if exists(PRIO) then
      redis.call('HDEL', PRIO, unpack(items))
    end
    if exists(FAIR) then
      redis.call('HDEL', FAIR, unpack(items))
    end
  end
end


-- Ends every script that queues items: one wake-up hint per item queued in it and still in
-- the FIFO (a getter that took it in the same script needs none), at most WAKE_HINTS in all.
local function endScript()
  -- Nothing is held here today (a batch that holds items takes them); were a script to hold
  -- items and not take them, they are queued, not lost.
  settle()
  flushCounts()
  if queued == 0 or drained then
    return
  end
  local hints = math.min(queued, readyCount(), WAKE_HINTS)
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
