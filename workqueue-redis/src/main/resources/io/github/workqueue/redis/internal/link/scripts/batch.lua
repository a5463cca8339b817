--@include delays
--@include leases
--@include once
--@include traces
-- One round trip for what an instance's threads asked meanwhile, in this order: adds, dones,
-- then leases for its idle getters (so an item added here can go straight to a getter here).
-- Each step reads and writes all its items with one command per key (HMGET, HSET, ZADD... with
-- many arguments), so that a batch of many items costs Redis far less per item than a batch of
-- one (docs/benchmarks.md, RedisScriptCost).
-- ARGV: now, holder, lease in microseconds, most lease expiries in a row before parking (-1:
-- never), how long an ended lease is remembered (microseconds), the sending instance's own id
-- (one per batcher, never reused), the part's number (increasing in the order the sender sends
-- its parts to this shard), number of adds A, number of dones D, number of leases wanted G, then
-- A items, then D (item, token) pairs, then the number of adds with a priority P and P (item,
-- priority, fairness keys as JSON or empty) triples, then, only when some of the adds carried a
-- trace context, their number T and T (item, context) pairs (includes/traces.lua).
-- Returns {microseconds until the next waiting item or lease deadline (-1 if none), A then P add
-- results (1 made dirty, 0 joined an earlier add), D done results (1 accepted, 0 rejected),
-- then per lease granted: item, token, deadline, microseconds it was dirty before, priority,
-- then, only when a granted item had trace contexts, a list of the leases' fields of TRACES
-- ('' for none)}; or the error REPEATED_CALL for a part that ran already.
local holder, leaseMicros, maxExpiries, endedMicros = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local sender = ARGV[6]
local addCount, doneCount, wanted = tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10])
local optionsAt = 11 + addCount + 2 * doneCount
local optionCount = tonumber(ARGV[optionsAt] or 0)
local tracesAt = optionsAt + 1 + 3 * optionCount
local traceCount = tonumber(ARGV[tracesAt] or 0)

-- A part runs at most once (includes/once.lua): refused when Lettuce sends it again.
local refusal = refusedRepeat(sender, ARGV[7], math.ceil(endedMicros / 1000))
if refusal then
  return refusal
end
local result = { 0 }
local nowText = int(now)
local lastToken, endedSince, pausedEverywhere = 0, 0, false
if doneCount > 0 or wanted > 0 then
  local counters = redis.call('HMGET', COUNTERS, 'tokens', 'endedSince', 'paused')
  lastToken, endedSince = tonumber(counters[1] or 0), tonumber(counters[2] or 0)
  -- Paused queue-wide (pause.lua): no instance is granted a lease until it is resumed.
  pausedEverywhere = counters[3] ~= false
end
-- Items that become ready here while nothing else is and that this batch's leases will take
-- need not be queued in Redis's keys on the way (includes/state.lua, passing).
passLimit = pausedEverywhere and 0 or wanted

-- Due waiting items enter the FIFO before the items added now, as they were ready first. Before
-- the dones too: an item in flight whose waiting entry came due was marked dirty then, and its
-- done must requeue it behind the items that became ready before the done, not leave it to a
-- later promotion that would queue it by its ready time, ahead of them.
if addCount > 0 or optionCount > 0 or wanted > 0 or doneCount > 0 then
  promoteDue()
end

-- An add supersedes a waiting entry: drops the entries of the items whose ready time is given.
-- Returns how many there were.
local function supersede(items, ready)
  local superseded = {}
  for i, item in ipairs(items) do
    if ready[i] then
      superseded[#superseded + 1] = item
    end
  end
  if #superseded > 0 then
    redis.call('ZREM', WAITING, unpack(superseded))
    redis.call('HDEL', ORDER, unpack(superseded))
  end
  return #superseded
end

-- Marks the items dirty (dedup while dirty, and within the batch), queues those not in flight
-- (an item in flight runs again after its done), and appends each add's result. dirty and
-- inFlight are the items' fields of DIRTY and INFLIGHT as they are now; known, when given, the
-- fields of PRIO and FAIR that the items queued here have (enqueueAll's known, by the items'
-- index here), or nil to read them.
local function markDirtyAll(items, dirty, inFlight, known)
  local marked, marks, pushed = {}, {}, {}
  -- NO_ATTRIBUTES holds for any index; other fields move to the item's index in pushed.
  local moved = known and known ~= NO_ATTRIBUTES
  local pushedKnown = moved and { prios = {}, fair = {} } or known
  for i, item in ipairs(items) do
    if dirty[i] or marked[item] then
      result[#result + 1] = 0
    else
      marked[item] = true
      marks[#marks + 1] = item
      marks[#marks + 1] = nowText
      if not inFlight[i] then
        local at = #pushed + 1
        pushed[at] = item
        if moved then
          -- Only fields that are set: in Lua 5.1 storing nil makes a slot too.
          if known.prios[i] then
            pushedKnown.prios[at] = known.prios[i]
          end
          if known.fair[i] then
            pushedKnown.fair[at] = known.fair[i]
          end
        end
      end
      result[#result + 1] = 1
    end
  end
  if #marks > 0 then
    hsetMany(DIRTY, marks)
    if exists(PARKED) then
      local unparked = {}
      for i = 1, #marks, 2 do
        unparked[#unparked + 1] = marks[i]
      end
      redis.call('HDEL', PARKED, unpack(unparked))
    end
  end
  enqueueAll(pushed, false, pushedKnown)
end

-- Whether an item already queued comes after an item that this batch queues (a new or a waiting
-- one). Raising a queued item keeps its place in its level, but with fairness it may make its
-- tenant take its turn: reading and writing all items together would give that turn before the
-- tenant of the item queued first, where one add after another (an addAll, in its order) gives
-- it after. The batch then goes one add at a time.
local function queuedAfterNew(dirty, inFlight)
  local queues = false
  for i = 1, #dirty do
    if queues and dirty[i] and not inFlight[i] then
      return true
    end
    queues = queues or not (dirty[i] or inFlight[i])
  end
  return false
end

-- Adds (client-go's add): an add supersedes a waiting entry; dedup while dirty; an item in
-- flight is only marked, and runs again after its done.
if addCount > 0 then
  local items = {}
  for i = 1, addCount do
    items[i] = ARGV[10 + i]
  end
  if exists(PRIO) then
    -- These adds have priority 0: an item present at a lower one is raised, a waiting one
    -- included (so before its waiting entry is superseded). A raised item keeps its place by
    -- the time it was first queued, so raising before queueing the batch's new items changes
    -- no order.
    local prios = redis.call('HMGET', PRIO, unpack(items))
    for i, item in ipairs(items) do
      if prios[i] and tonumber(prios[i]) < 0 then
        levels().prioritize(item, 0, '')
      end
    end
  end
  -- A superseded item may keep a priority of its own (a raise never lowers it): read then.
  local superseded = exists(WAITING) and supersede(items, redis.call('ZMSCORE', WAITING, unpack(items))) or 0
  markDirtyAll(items, redis.call('HMGET', DIRTY, unpack(items)), redis.call('HMGET', INFLIGHT, unpack(items)),
    superseded == 0 and NO_ATTRIBUTES or nil)
end

-- Adds with a priority (and fairness keys): the item's priority is raised, or taken by a new
-- item, then the add as above. Distinct items (the usual batch) are read and written together;
-- an item named twice, or one already queued after one this batch queues (queuedAfterNew),
-- makes the batch go one add at a time, so that each add sees the ones before it.
if optionCount > 0 then
  -- prioTexts: the priorities as sent, written to PRIO as they are (see readyAddAll's scores).
  local items, prios, prioTexts, keys, seen, distinct = {}, {}, {}, {}, {}, true
  local numbers = {}
  for k = 1, optionCount do
    local at = optionsAt + 3 * k - 2
    items[k], prioTexts[k], keys[k] = ARGV[at], ARGV[at + 1], ARGV[at + 2]
    prios[k] = numberIn(numbers, prioTexts[k])
    distinct = distinct and not seen[items[k]]
    seen[items[k]] = true
  end
  local dirty, inFlight
  if distinct then
    dirty = redis.call('HMGET', DIRTY, unpack(items))
    inFlight = redis.call('HMGET', INFLIGHT, unpack(items))
    distinct = not queuedAfterNew(dirty, inFlight)
  end
  if not distinct then
    for k = 1, optionCount do
      levels().prioritize(items[k], prios[k], keys[k])
      result[#result + 1] = addNow(items[k])
    end
  else
    local waiting = exists(WAITING) and redis.call('ZMSCORE', WAITING, unpack(items)) or {}
    local newPrios, newKeys = {}, {}
    -- The fields of PRIO and FAIR the new items are given below, by their index.
    local known = { prios = {}, fair = {} }
    for k, item in ipairs(items) do
      if dirty[k] or inFlight[k] or waiting[k] then
        levels().prioritize(item, prios[k], keys[k])
      else
        if prios[k] ~= 0 then
          known.prios[k] = prioTexts[k]
          newPrios[#newPrios + 1] = item
          newPrios[#newPrios + 1] = prioTexts[k]
        end
        if keys[k] ~= '' then
          known.fair[k] = keys[k]
          newKeys[#newKeys + 1] = item
          newKeys[#newKeys + 1] = keys[k]
        end
      end
    end
    if #newPrios > 0 then
      hsetMany(PRIO, newPrios)
      existing[PRIO] = true
    end
    if #newKeys > 0 then
      hsetMany(FAIR, newKeys)
      existing[FAIR] = true
    end
    -- prioritize writes neither DIRTY nor INFLIGHT: what was read above still holds. A
    -- superseded item was raised (prioritize): its fields are read then.
    local superseded = supersede(items, waiting)
    markDirtyAll(items, dirty, inFlight, superseded == 0 and known or nil)
  end
end

-- The adds' trace contexts, after the adds themselves (whose outcome they do not change): each
-- goes to the item's next processing, the grant below included.
if traceCount > 0 then
  local items, contexts = {}, {}
  for k = 1, traceCount do
    items[k], contexts[k] = ARGV[tracesAt + 2 * k - 1], ARGV[tracesAt + 2 * k]
  end
  appendTraces(items, contexts)
end

-- Dones: a lease ends only by its own token (fencing); a repeat of an accepted done (a retry
-- whose first reply was lost, or the follow-up of a done that got no answer) is accepted again
-- while its token is remembered, whatever later leases of the item did; the item runs again if
-- it was added meanwhile.
-- A rejected done is remembered as an accepted one is (token, space, item), so that its repeats
-- (retries, Lettuce's replay after a reconnect) are rejected again but counted once.
local REJECTED, REJECTED_OLD = ENDED .. ':rejected', ENDED_OLD .. ':rejected'
if doneCount > 0 then
  if now - endedSince >= endedMicros then
    -- A new window: what ended two windows ago is forgotten (freed in the background).
    redis.call('UNLINK', ENDED_OLD, REJECTED_OLD)
    if redis.call('EXISTS', ENDED) == 1 then
      redis.call('RENAME', ENDED, ENDED_OLD)
    end
    if redis.call('EXISTS', REJECTED) == 1 then
      redis.call('RENAME', REJECTED, REJECTED_OLD)
    end
    redis.call('HSET', COUNTERS, 'endedSince', nowText)
  end
  local items, tokens = {}, {}
  for j = 1, doneCount do
    items[j] = ARGV[9 + addCount + 2 * j]
    tokens[j] = ARGV[10 + addCount + 2 * j]
  end
  local leases = redis.call('HMGET', INFLIGHT, unpack(items))
  local endedNow, finished, endedMembers, unknown = {}, {}, {}, {}
  for j, item in ipairs(items) do
    local live = false
    if leases[j] then
      local token, deadline = tokenAndDeadline(leases[j])
      live = token == tokens[j] and tonumber(deadline) > now
    end
    if live and not endedNow[item] then
      endedNow[item] = tokens[j]
      finished[#finished + 1] = item
      endedMembers[#endedMembers + 1] = tokens[j]
      endedMembers[#endedMembers + 1] = item
      result[#result + 1] = 1
    elseif endedNow[item] == tokens[j] then
      result[#result + 1] = 1
    else
      unknown[#unknown + 1] = j
      result[#result + 1] = 0
    end
  end
  if #unknown > 0 then
    local fields = {}
    for i, j in ipairs(unknown) do
      fields[i] = tokens[j]
    end
    local recent = redis.call('HMGET', ENDED, unpack(fields))
    local older = redis.call('HMGET', ENDED_OLD, unpack(fields))
    local rejections, marks = {}, {}
    for i, j in ipairs(unknown) do
      if recent[i] == items[j] or older[i] == items[j] then
        result[1 + addCount + optionCount + j] = 1
      else
        rejections[#rejections + 1] = tokens[j] .. ' ' .. items[j]
      end
    end
    if #rejections > 0 then
      local seen = redis.call('HMGET', REJECTED, unpack(rejections))
      local seenBefore = redis.call('HMGET', REJECTED_OLD, unpack(rejections))
      local counted = {}
      for i, field in ipairs(rejections) do
        if not seen[i] and not seenBefore[i] and not counted[field] then
          counted[field] = true
          marks[#marks + 1] = field
          marks[#marks + 1] = '1'
        end
      end
      if #marks > 0 then
        redis.call('HSET', REJECTED, unpack(marks))
        redis.call('HINCRBY', COUNTERS, 'rejected', #marks / 2)
      end
    end
  end
  if #finished > 0 then
    redis.call('HDEL', INFLIGHT, unpack(finished))
    redis.call('ZREM', LEASES, unpack(finished))
    redis.call('HSET', ENDED, unpack(endedMembers))
    if exists(EXPIRIES) then
      redis.call('HDEL', EXPIRIES, unpack(finished))
    end
    local dirty = redis.call('HMGET', DIRTY, unpack(finished))
    local again, gone = {}, {}
    for i, item in ipairs(finished) do
      if dirty[i] then
        again[#again + 1] = item
      else
        gone[#gone + 1] = item
      end
    end
    enqueueAll(again, false)
    if #gone > 0 and (exists(PRIO) or exists(FAIR)) then
      -- An item done with nothing pending leaves, and its priority and keys with it.
      local waiting = exists(WAITING) and redis.call('ZMSCORE', WAITING, unpack(gone)) or {}
      local left = {}
      for i, item in ipairs(gone) do
        if not waiting[i] then
          left[#left + 1] = item
        end
      end
      forgetAttributes(left)
    end
  end
end

-- Leases for the idle getters, from the head of the FIFO, after expired leases went back.
local granted = 0
if wanted > 0 then
  reapExpired(maxExpiries)
end
if wanted > 0 and not pausedEverywhere then
  local items, prios = popReady(wanted)
  if items and #items > 0 then
    local since = redis.call('HMGET', DIRTY, unpack(items))
    redis.call('HDEL', DIRTY, unpack(items))
    -- Fencing tokens only move forward, even after Redis lost its last writes (the counter
    -- rolled back): a token is at least the grant's time in microseconds, which a restart
    -- cannot undo.
    local token = math.max(lastToken, now - 1)
    local deadline = now + leaseMicros
    local deadlineText = int(deadline)
    local holds, deadlines = {}, {}
    for i, item in ipairs(items) do
      token = token + 1
      holds[#holds + 1] = item
      holds[#holds + 1] = int(token) .. ' ' .. holder .. ' ' .. nowText .. ' ' .. deadlineText
      deadlines[#deadlines + 1] = deadlineText
      deadlines[#deadlines + 1] = item
      result[#result + 1] = item
      result[#result + 1] = token
      result[#result + 1] = deadline
      result[#result + 1] = math.max(0, now - tonumber(since[i] or now))
      result[#result + 1] = tonumber(prios[i] or 0)
    end
    redis.call('HSET', INFLIGHT, unpack(holds))
    zaddMany(LEASES, deadlines)
    redis.call('HSET', COUNTERS, 'tokens', int(token))
    granted = #items
    local traces = takeTraces(items)
    if traces then
      result[#result + 1] = traces
    end
  end
end
if granted < wanted then
  result[1] = nextEvent()
end
endScript()
return result
