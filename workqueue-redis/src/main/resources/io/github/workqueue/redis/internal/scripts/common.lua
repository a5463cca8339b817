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
--  13 ended     hash    token -> item, of each lease ended by done (a repeated done is accepted)
--  14 endedOld  hash    the same for the window before: a done is remembered for one to two
--                       windows, then dropped with the whole hash (the window is in counters)
-- ARGV[1] is the time to use in microseconds, or empty for Redis's TIME.
--
-- Loaded once as a Redis function library (every script below registered as a function) and
-- so kept between calls: the state of one call lives in the variables declared here and is
-- set afresh by begin(), which every call runs first. Where functions are unavailable each
-- script is sent with this file in front and a call to begin(); the same code runs.
local QUEUE, DIRTY, INFLIGHT, LEASES, WAITING, ORDER, FAILURES, EXPIRIES, PARKED, BUCKETS, WAKE, COUNTERS, ENDED
local ENDED_OLD
local now

local function int(n)
  return string.format('%.0f', n)
end

local WAKE_HINTS = 64

-- The keys of priorities and fairness (described below), named after QUEUE.
local PRIO, FAIR, LEVELS, COUNT, READY, SEQ

-- Whether each of two or four keys exists, in one command: EXISTS counts a key once for each
-- time it is named, so naming them once, twice, four and eight times makes its answer a bit per
-- key.
local function existEach(a, b, c, d)
  if not c then
    local found = redis.call('EXISTS', a, b, b)
    return found % 2 == 1, found >= 2
  end
  local found = redis.call('EXISTS', a, b, b, c, c, c, c, d, d, d, d, d, d, d, d)
  return found % 2 == 1, found % 4 >= 2, found % 8 >= 4, found >= 8
end

-- Whether a key exists, asked once per script and then kept up to date by the functions
-- below that write it: most items are never waiting, parked or expired, so the commands that
-- would clean them up are skipped while their key is absent. A key taken for present that a
-- command of this script emptied costs a command that finds nothing, never a skipped one. The
-- four keys of priorities and fairness that say where the ready items are are asked together,
-- one command whatever the queue uses.
local present
local function exists(key)
  if present[key] == nil then
    if key == PRIO or key == FAIR or key == LEVELS or key == READY then
      present[PRIO], present[FAIR], present[LEVELS], present[READY] = existEach(PRIO, FAIR, LEVELS, READY)
    else
      present[key] = redis.call('EXISTS', key) == 1
    end
  end
  return present[key]
end

-- Priorities and fairness (DESIGN.md, "Priority and fairness"), in keys named after QUEUE (its
-- hash slot):
--   PRIO    hash  item -> priority, for items present (dirty, waiting or in flight) not at 0
--   FAIR    hash  item -> fairness keys (JSON array), for items present that have keys
--   LEVELS  zset  the priorities that have ready items, while the levels are in use
--   COUNT   hash  priority -> ready items at it (their sum is the ready items in the levels)
--   QUEUE:t:<priority>[/<segment>...]  a priority's fairness tree: one node per path of keys (a
--           segment is a key with its length in front). A node's own items (those whose keys
--           end there) are a zset at the node's name, item -> the sequence in which it became
--           ready. A node with children has a ':turns' list, its round-robin order: an entry per
--           active child and '$' for its own items, served at the head and then moved to the
--           tail, or dropped when empty. A child's entry is its segment, marked with '=' in
--           front while the child has own items only (and so no turns), which saves serving
--           it a command; a node with no keys below it is such a node too, and its items leave
--           several at once.
-- Ready items that have no keys, while none that has keys is ready, are kept in two keys instead,
-- since they need no tree:
--   READY   zset  item's sequence code (sixteen digits, the sequence plus 2^52, so that the codes
--                 of negative sequences sort first) followed by the item -> minus its priority:
--                 ZPOPMIN takes the highest priority's first ready item (members of one score leave
--                 in the order of their bytes, so of their codes)
--   SEQ     hash  item -> its code, for exactly the items in READY (a raise moves the member)
-- The ready items are in exactly one place: the FIFO while neither READY nor LEVELS exists (every
-- ready item at priority 0 without keys: today's queue at today's cost); READY while it exists;
-- the trees while LEVELS exists. The first ready item of another priority moves the FIFO into
-- READY in its order, the first with keys moves the FIFO or READY into the trees; when READY or
-- the levels are empty their key is gone, and the FIFO is back.

-- Items that became ready during this script and were queued in Redis's keys: finish() wakes
-- getters once for all.
local queued

-- Also kept for the whole script, so that a batch of many items pays for each once: the ready
-- counts not yet written to COUNT (finish() writes them), and which keys of the trees (a node's
-- own items, a turns list) are known to exist, as read or written.
local pendingCount, pendingAll
local known

-- Items that became ready in this script while nothing else was ready, kept in Lua instead of in
-- READY or the trees because the script is going to take them all itself (a batch whose idle
-- getters outnumber them: the steady state of workers that keep up): nil, or their items,
-- priorities and fairness keys as read, in the order they became ready; never more than
-- passLimit, the number of items the script will ask popReady for (0 but in a batch, whose
-- takes ask for that many). settle() writes them to Redis's keys as if queued when they became
-- ready, before any step but that take that reads or changes where ready items are.
local passing, passLimit
local settle

-- Starts a call: its keys, its time, and nothing known or pending yet.
local function begin(keys, argv)
  QUEUE, DIRTY, INFLIGHT, LEASES, WAITING, ORDER, FAILURES, EXPIRIES, PARKED, BUCKETS, WAKE, COUNTERS, ENDED =
    keys[1], keys[2], keys[3], keys[4], keys[5], keys[6], keys[7], keys[8], keys[9], keys[10], keys[11], keys[12],
    keys[13]
  ENDED_OLD = keys[14]
  if argv[1] ~= '' then
    now = tonumber(argv[1])
  else
    local t = redis.call('TIME')
    now = tonumber(t[1]) * 1000000 + tonumber(t[2])
  end
  PRIO, FAIR, LEVELS, COUNT = QUEUE .. ':prio', QUEUE .. ':fair', QUEUE .. ':levels', QUEUE .. ':count'
  READY, SEQ = QUEUE .. ':ready', QUEUE .. ':seq'
  present, queued = {}, 0
  pendingCount, pendingAll, known = {}, 0, {}
  passing, passLimit = nil, 0
end

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
  return string.format('%016.0f', sequence + SEQ_OFFSET)
end

-- Queues items without keys in READY at their priorities (prios[i], nil for 0), at the tail or
-- the head of each.
local function readyAddAll(items, prios, front)
  local sequenceOf = sequences(#items, front)
  local members, codes = {}, {}
  for i, item in ipairs(items) do
    local code = seqCode(sequenceOf(i))
    members[#members + 1] = 0 - tonumber(prios[i] or 0)
    members[#members + 1] = code .. item
    codes[#codes + 1] = item
    codes[#codes + 1] = code
  end
  for from = 1, #members, 2000 do
    local to = math.min(from + 1999, #members)
    redis.call('ZADD', READY, unpack(members, from, to))
    redis.call('HSET', SEQ, unpack(codes, from, to))
  end
  present[READY] = true
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
  local items, prios = {}, {}
  for i = 1, #popped, 2 do
    items[#items + 1] = string.sub(popped[i], 17)
    prios[#prios + 1] = 0 - tonumber(popped[i + 1])
  end
  if #items > 0 then
    redis.call('HDEL', SEQ, unpack(items))
  end
  if #items < count then
    present[READY] = false
  else
    present[READY] = nil
  end
  return items, prios
end

-- The functions of priority levels and fairness trees, made on first use: a script of a queue
-- that uses neither never makes them (each function a script defines costs every call that
-- is sent as a script; a function library makes them once).
local levelOps = nil
local function levels()
  if levelOps then
    return levelOps
  end
  local function keysOf(encoded)
    if not encoded then
      return {}
    end
    return cjson.decode(encoded)
  end

  local function segment(keys, depth)
    return #keys[depth] .. ':' .. keys[depth]
  end

  local function turnsOf(node)
    return node .. ':turns'
  end

  local function rootOf(priority)
    return QUEUE .. ':t:' .. priority
  end

  -- A node's names from its priority's root down to the node of the keys.
  local function pathOf(priority, keys)
    local nodes = { rootOf(priority) }
    for depth = 1, #keys do
      nodes[depth + 1] = nodes[depth] .. '/' .. segment(keys, depth)
    end
    return nodes
  end

  -- The child an entry of a node's turns names, and whether it has own items only.
  local function childOf(node, entry)
    if string.byte(entry) == 61 then -- '='
      return node .. '/' .. string.sub(entry, 2), true
    end
    return node .. '/' .. entry, false
  end

  -- Whether a key of the trees exists: read once per script, then kept by the writes below.
  local function has(key)
    local found = known[key]
    if found == nil then
      found = redis.call('EXISTS', key) == 1
      known[key] = found
    end
    return found
  end

  -- Takes an entry out of a turns list, the one at the back (where a take has just put it)
  -- when none is named; returns whether the list still has entries.
  local function dropTurn(turns, entry)
    if entry then
      redis.call('LREM', turns, 1, entry)
    else
      redis.call('RPOP', turns)
    end
    known[turns] = nil
    return has(turns)
  end

  local function countReady(priority, delta)
    pendingCount[priority] = (pendingCount[priority] or 0) + delta
    pendingAll = pendingAll + delta
  end

  -- A priority whose tree has no ready item left leaves the levels.
  local function dropLevel(priority)
    redis.call('ZREM', LEVELS, priority)
    present[LEVELS] = redis.call('EXISTS', LEVELS) == 1
  end

  -- Makes the node of an item's keys ready for the item, which the caller gives it at once,
  -- and returns it. A node with own items needs nothing; one with turns takes '$' at their
  -- back; an inactive one joins its parent's turns at the back, marked, and so on up: a parent
  -- that was inactive gets turns and joins its own parent unmarked, one with turns takes the
  -- entry at their back, and one with own items only gets turns, its own items first, and
  -- loses its mark. An active node's ancestors are all active, so the path is read from the
  -- node up, and usually the node and its turns alone are read.
  local function activate(priority, keys)
    local nodes = pathOf(priority, keys)
    local node = nodes[#nodes]
    if known[node] then
      return node
    end
    local turns = turnsOf(node)
    if known[node] == nil and known[turns] == nil then
      known[node], known[turns] = existEach(node, turns)
    end
    if has(node) then
      return node
    end
    known[node] = true
    if has(turns) then
      redis.call('RPUSH', turns, '$')
      return node
    end
    local entry = (#keys > 0) and ('=' .. segment(keys, #keys)) or nil
    for depth = #keys, 1, -1 do
      local parent = nodes[depth]
      turns = turnsOf(parent)
      if has(turns) then
        redis.call('RPUSH', turns, entry)
        return node
      end
      known[turns] = true
      if has(parent) then
        redis.call('RPUSH', turns, '$', entry)
        if depth > 1 then
          local seg = segment(keys, depth - 1)
          local above = turnsOf(nodes[depth - 1])
          redis.call('LSET', above, redis.call('LPOS', above, '=' .. seg), seg)
        end
        return node
      end
      redis.call('RPUSH', turns, entry)
      if depth > 1 then
        entry = segment(keys, depth - 1)
      end
    end
    redis.call('ZADD', LEVELS, priority, priority)
    present[LEVELS] = true
    return node
  end

  -- Gives nodes their own items: node -> {sequence, item, ...}, in as few commands as Lua allows.
  local function fillLeaves(members)
    for node, list in pairs(members) do
      for from = 1, #list, 2000 do
        redis.call('ZADD', node, unpack(list, from, math.min(from + 1999, #list)))
      end
    end
  end

  -- Adds an item to what fillLeaves will give the node of its priority and keys, making the
  -- node ready for it.
  local function gather(members, priority, keys, sequence, item)
    local node = activate(priority, keys)
    local list = members[node]
    if not list then
      list = {}
      members[node] = list
    end
    list[#list + 1] = sequence
    list[#list + 1] = item
    countReady(priority, 1)
  end

  local function treeAdd(priority, keys, item, sequence)
    redis.call('ZADD', activate(priority, keys), sequence, item)
    countReady(priority, 1)
  end

  -- Takes the next items of a priority into items, up to count: down the heads of the turns,
  -- each served entry going to the back of its turns as it is read (one LMOVE, which returns
  -- it), to a node's own items, of which it takes the first (or, at a root of own items only,
  -- up to count). Then, from there up, a node left empty leaves its parent's turns from the
  -- back, where it just went. Returns whether the priority has none left.
  local function treePop(priority, count, items)
    local path = {}
    local node = rootOf(priority)
    local ownOnly = known[turnsOf(node)] == false
    while not ownOnly do
      local turns = turnsOf(node)
      local entry = redis.call('LMOVE', turns, turns, 'LEFT', 'RIGHT')
      if not entry then
        -- Only a root has no mark to say it has no turns.
        known[turns], ownOnly = false, true
        break
      end
      path[#path + 1] = node
      if entry == '$' then
        break
      end
      node, ownOnly = childOf(node, entry)
    end
    if #path > 0 then
      count = 1
    end
    local popped = redis.call('ZPOPMIN', node, count)
    for i = 1, #popped, 2 do
      items[#items + 1] = popped[i]
    end
    countReady(priority, -#popped / 2)
    local active
    if #popped / 2 < count then
      active = false
      known[node] = false
    else
      known[node] = nil
      active = has(node)
    end
    -- A node whose own items were served from its turns is the last of the path: up from
    -- there, each emptied entry is at the back of its turns.
    for up = #path, 1, -1 do
      if active then
        break
      end
      active = dropTurn(turnsOf(path[up]))
    end
    if not active then
      dropLevel(priority)
    end
    return not active
  end

  -- Takes a ready item out of its priority's tree; returns its sequence.
  local function treeRemove(priority, keys, item)
    local nodes = pathOf(priority, keys)
    local node = nodes[#nodes]
    local sequence = redis.call('ZSCORE', node, item)
    redis.call('ZREM', node, item)
    known[node] = nil
    -- A node left without own items drops '$' from its turns, or, having none, is the
    -- marked entry of its parent.
    local active = has(node)
    local mark = ''
    if not active then
      if has(turnsOf(node)) then
        active = dropTurn(turnsOf(node), '$')
      else
        mark = '='
      end
    end
    for depth = #keys, 1, -1 do
      if active then
        break
      end
      active = dropTurn(turnsOf(nodes[depth]), mark .. segment(keys, depth))
      mark = ''
    end
    countReady(priority, -1)
    if not active then
      dropLevel(priority)
    end
    return tonumber(sequence)
  end

  -- Moves the FIFO (priority 0, no keys) through READY, or READY, to the roots of their
  -- priorities, in their order.
  local function useLevels()
    if exists(LEVELS) then
      return
    end
    useReady()
    if exists(READY) then
      local all = redis.call('ZRANGE', READY, 0, -1, 'WITHSCORES')
      redis.call('DEL', READY, SEQ)
      present[READY] = false
      local members = {}
      for i = 1, #all, 2 do
        gather(members, 0 - tonumber(all[i + 1]), {}, tonumber(string.sub(all[i], 1, 16)) - SEQ_OFFSET,
          string.sub(all[i], 17))
      end
      fillLeaves(members)
    end
  end

  local function isPresent(item)
    return redis.call('HEXISTS', DIRTY, item) == 1 or redis.call('HEXISTS', INFLIGHT, item) == 1
      or (exists(WAITING) and redis.call('ZSCORE', WAITING, item) ~= false)
  end

  -- An add's priority: a new item takes it; a present one keeps the higher of its own and the
  -- add's, and a ready one moves to its new priority keeping the moment it became ready.
  local function prioritize(item, priority, keys)
    if not isPresent(item) then
      if priority ~= 0 then
        redis.call('HSET', PRIO, item, priority)
        present[PRIO] = true
      end
      if keys ~= '' then
        redis.call('HSET', FAIR, item, keys)
        present[FAIR] = true
      end
      return
    end
    local current = tonumber(redis.call('HGET', PRIO, item) or 0)
    if priority <= current then
      return
    end
    local ready = redis.call('HEXISTS', DIRTY, item) == 1 and redis.call('HEXISTS', INFLIGHT, item) == 0
    redis.call('HSET', PRIO, item, priority)
    present[PRIO] = true
    if not ready then
      return
    end
    -- The item may be one held in this script: it moves where it is queued, so they are first
    -- queued (each with the priority it had when it became ready).
    settle()
    if exists(LEVELS) then
      local fairKeys = keysOf(redis.call('HGET', FAIR, item))
      treeAdd(priority, fairKeys, item, treeRemove(current, fairKeys, item))
    else
      -- Without keys: in READY (or the FIFO, moved there), its member moves to the new score.
      useReady()
      redis.call('ZADD', READY, 0 - priority, redis.call('HGET', SEQ, item) .. item)
    end
  end
  -- The order in which the trees would serve items queued one after another into empty trees and
  -- then all taken, worked out in Lua tables by the rules the trees keep (treePop, activate):
  -- highest priority first; in a priority, from the root down each node serves the head of its
  -- turns and sends it to the back (dropping it when it has nothing left), its own items first
  -- in, first out. Returns the items in that order and the priority of each.
  local function serveAll(items, prios, fair)
    local function newNode()
      return { size = 0, own = {}, ownHead = 1, children = {} }
    end
    local function push(turns, entry)
      turns.last = turns.last + 1
      turns[turns.last] = entry
    end
    local roots, priorities = {}, {}
    for i, item in ipairs(items) do
      local priority = tonumber(prios[i] or 0)
      local node = roots[priority]
      if not node then
        node = newNode()
        roots[priority] = node
        priorities[#priorities + 1] = priority
      end
      node.size = node.size + 1
      for _, key in ipairs(keysOf(fair[i])) do
        local child = node.children[key]
        if not child then
          child = newNode()
          node.children[key] = child
          if not node.turns then
            -- A node's first child: its own items, if any, keep their turn ahead of it.
            node.turns = { first = 1, last = 0 }
            if #node.own > 0 then
              push(node.turns, node)
            end
          end
          push(node.turns, child)
        end
        node = child
        node.size = node.size + 1
      end
      node.own[#node.own + 1] = item
      if #node.own == 1 and node.turns then
        push(node.turns, node)
      end
    end
    local function take(root)
      local node = root
      while true do
        node.size = node.size - 1
        local turns, entry = node.turns, node
        if turns then
          entry = turns[turns.first]
          turns[turns.first] = nil
          turns.first = turns.first + 1
          if entry ~= node and entry.size > 1 then
            push(turns, entry)
          end
        end
        if entry == node then
          local item = node.own[node.ownHead]
          node.ownHead = node.ownHead + 1
          if turns and node.ownHead <= #node.own then
            push(turns, node)
          end
          return item
        end
        node = entry
      end
    end
    table.sort(priorities, function(a, b) return a > b end)
    local taken, takenPrios = {}, {}
    for _, priority in ipairs(priorities) do
      local root = roots[priority]
      while root.size > 0 do
        taken[#taken + 1] = take(root)
        takenPrios[#takenPrios + 1] = priority
      end
    end
    return taken, takenPrios
  end
  levelOps = { keysOf = keysOf, gather = gather, fillLeaves = fillLeaves,
    pop = treePop, useLevels = useLevels, prioritize = prioritize, rootOf = rootOf, turnsOf = turnsOf,
    childOf = childOf, serveAll = serveAll }
  return levelOps
end

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
  local members = {}
  for i, item in ipairs(items) do
    ops.gather(members, tonumber(prios[i] or 0), ops.keysOf(fair[i]), sequenceOf(i), item)
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

-- Queues items that became ready, at the tail (or, one by one, at the head) of their priority;
-- items at the tail may instead pass through the script (see passing).
local function enqueueAll(items, front)
  local n = #items
  if n == 0 then
    return
  end
  queued = queued + n
  local prios = exists(PRIO) and redis.call('HMGET', PRIO, unpack(items)) or {}
  local fair = exists(FAIR) and redis.call('HMGET', FAIR, unpack(items)) or {}
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
local function popReady(count)
  if passing then
    local held = passing
    passing = nil
    -- Never queued in Redis's keys, so no getter needs a wake-up hint for them.
    queued = queued - #held.items
    return levels().serveAll(held.items, held.prios, held.fair)
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

local function readyCount()
  if exists(LEVELS) then
    local total = pendingAll
    for _, count in ipairs(redis.call('HVALS', COUNT)) do
      total = total + tonumber(count)
    end
    return total
  end
  -- After a take from READY its existence is unknown: its size answers that too.
  if present[READY] ~= false then
    local size = redis.call('ZCARD', READY)
    present[READY] = size > 0
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
local function finish()
  -- Nothing is held here today (a batch that holds items takes them); were a script to hold
  -- items and not take them, they are queued, not lost.
  settle()
  flushCounts()
  if queued == 0 then
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
      forgetAttributes({ item })
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

-- A plain add (at priority 0) of an item present at a lower priority raises it to 0.
local function raiseToZero(item)
  if exists(PRIO) then
    local priority = redis.call('HGET', PRIO, item)
    if priority and tonumber(priority) < 0 then
      levels().prioritize(item, 0, '')
    end
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
