--@include state
--@include ready
-- The functions of priority levels and fairness trees, made on first use: a script of a queue
-- that uses neither never makes them (each function a script defines costs every call that
-- is sent as a script; a function library makes them once).
local levelOps = nil
local function levels()
  if levelOps then
    return levelOps
  end
  -- The keys of an item without any: one table for all, never written.
  local NO_KEYS = {}
  local function keysOf(encoded)
    if not encoded then
      return NO_KEYS
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

  -- Takes an entry out of a turns list, the one at the back (where a take has just put it)
  -- when none is named; returns whether the list still has entries.
  local function dropTurn(turns, entry)
    if entry then
      redis.call('LREM', turns, 1, entry)
    else
      redis.call('RPOP', turns)
    end
    existing[turns] = nil
    return exists(turns)
  end

  local function countReady(priority, delta)
    pendingCount[priority] = (pendingCount[priority] or 0) + delta
    pendingAll = pendingAll + delta
  end

  -- A priority whose tree has no ready item left leaves the levels.
  local function dropLevel(priority)
    redis.call('ZREM', LEVELS, priority)
    existing[LEVELS] = redis.call('EXISTS', LEVELS) == 1
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
    if existing[node] then
      return node
    end
    local turns = turnsOf(node)
    if existing[node] == nil and existing[turns] == nil then
      existing[node], existing[turns] = existEach(node, turns)
    end
    if exists(node) then
      return node
    end
    existing[node] = true
    if exists(turns) then
      redis.call('RPUSH', turns, '$')
      return node
    end
    local entry = (#keys > 0) and ('=' .. segment(keys, #keys)) or nil
    for depth = #keys, 1, -1 do
      local parent = nodes[depth]
      turns = turnsOf(parent)
      if exists(turns) then
        redis.call('RPUSH', turns, entry)
        return node
      end
      existing[turns] = true
      if exists(parent) then
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
    existing[LEVELS] = true
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

  -- Adds an item to what fillLeaves will give a node made ready for it (activate) at the
  -- item's priority.
  local function gatherAt(members, node, priority, sequence, item)
    local list = members[node]
    if not list then
      list = {}
      members[node] = list
    end
    list[#list + 1] = int(sequence)
    list[#list + 1] = item
    countReady(priority, 1)
  end

  -- Adds an item to what fillLeaves will give the node of its priority and keys, making the
  -- node ready for it.
  local function gather(members, priority, keys, sequence, item)
    gatherAt(members, activate(priority, keys), priority, sequence, item)
  end

  local function treeAdd(priority, keys, item, sequence)
    redis.call('ZADD', activate(priority, keys), sequence, item)
    countReady(priority, 1)
  end

  -- Takes the next count items of a priority whose root's turns name nodes of own items only
  -- (one level of keys, no '$'), as treePop would one at a time, but worked out in Lua: the
  -- turns' first count entries read once (no more can be served), their nodes' sizes, then one
  -- ZPOPMIN per node served and the turns written once, where treePop spends an LMOVE, a
  -- ZPOPMIN and an EXISTS per item. The round-robin is treePop's: the head entry is served and
  -- goes to the back, or leaves the turns when its node has no item left; the entries read wrap
  -- around only when they are the whole list. Returns nil, having changed nothing, for any
  -- other tree; else whether the priority has none left.
  local function treePopFlat(priority, count, items)
    local root = rootOf(priority)
    local turns = turnsOf(root)
    if existing[turns] == false then
      return nil
    end
    local entries = redis.call('LRANGE', turns, 0, count - 1)
    if #entries == 0 then
      return nil
    end
    local nodes, left = {}, {}
    for i, entry in ipairs(entries) do
      local node, ownOnly = childOf(root, entry)
      if not ownOnly then
        return nil
      end
      nodes[i] = node
    end
    for i, node in ipairs(nodes) do
      left[i] = redis.call('ZCARD', node)
      if left[i] == 0 then
        return nil
      end
    end
    local ring, first, last = {}, 1, #entries
    for i = 1, #entries do
      ring[i] = i
    end
    local served, wanted = {}, {}
    while #served < count and first <= last do
      local i = ring[first]
      first = first + 1
      served[#served + 1] = i
      wanted[i] = (wanted[i] or 0) + 1
      left[i] = left[i] - 1
      if left[i] > 0 then
        last = last + 1
        ring[last] = i
      end
    end
    local popped, cursor = {}, {}
    for i, n in pairs(wanted) do
      popped[i], cursor[i] = redis.call('ZPOPMIN', nodes[i], n), 1
      existing[nodes[i]] = left[i] > 0
    end
    for _, i in ipairs(served) do
      items[#items + 1] = popped[i][cursor[i]]
      cursor[i] = cursor[i] + 2
    end
    countReady(priority, -#served)
    -- The entries read leave the front; those whose nodes have items go to the back, behind
    -- the entries not read, in the order the round-robin left them.
    redis.call('LTRIM', turns, #entries, -1)
    local kept = {}
    for at = first, last do
      kept[#kept + 1] = entries[ring[at]]
    end
    if #kept > 0 then
      redis.call('RPUSH', turns, unpack(kept))
      existing[turns] = true
      return false
    end
    existing[turns] = nil
    if exists(turns) then
      return false
    end
    dropLevel(priority)
    return true
  end

  -- Takes the next items of a priority into items, up to count: down the heads of the turns,
  -- each served entry going to the back of its turns as it is read (one LMOVE, which returns
  -- it), to a node's own items, of which it takes the first (or, at a root of own items only,
  -- up to count). Then, from there up, a node left empty leaves its parent's turns from the
  -- back, where it just went. Returns whether the priority has none left.
  local function treePop(priority, count, items)
    if count > 1 then
      local emptied = treePopFlat(priority, count, items)
      if emptied ~= nil then
        return emptied
      end
    end
    local path = {}
    local node = rootOf(priority)
    local ownOnly = existing[turnsOf(node)] == false
    while not ownOnly do
      local turns = turnsOf(node)
      local entry = redis.call('LMOVE', turns, turns, 'LEFT', 'RIGHT')
      if not entry then
        -- Only a root has no mark to say it has no turns.
        existing[turns], ownOnly = false, true
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
      existing[node] = false
    else
      existing[node] = nil
      active = exists(node)
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
    existing[node] = nil
    -- A node left without own items drops '$' from its turns, or, having none, is the
    -- marked entry of its parent.
    local active = exists(node)
    local mark = ''
    if not active then
      if exists(turnsOf(node)) then
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
      existing[READY] = false
      local members = {}
      for i = 1, #all, 2 do
        gather(members, 0 - tonumber(all[i + 1]), {}, tonumber(string.sub(all[i], 1, 16)) - SEQ_OFFSET,
          string.sub(all[i], 17))
      end
      fillLeaves(members)
    end
  end

  -- Whether the item is in the queue at all: dirty, in flight or waiting.
  local function inQueue(item)
    return redis.call('HEXISTS', DIRTY, item) == 1 or redis.call('HEXISTS', INFLIGHT, item) == 1
      or (exists(WAITING) and redis.call('ZSCORE', WAITING, item) ~= false)
  end

  -- An add's priority: a new item takes it; a present one keeps the higher of its own and the
  -- add's, and a ready one moves to its new priority keeping the moment it became ready.
  local function prioritize(item, priority, keys)
    if not inQueue(item) then
      if priority ~= 0 then
        redis.call('HSET', PRIO, item, priority)
        existing[PRIO] = true
      end
      if keys ~= '' then
        redis.call('HSET', FAIR, item, keys)
        existing[FAIR] = true
      end
      return
    end
    local current = tonumber(redis.call('HGET', PRIO, item) or 0)
    if priority <= current then
      return
    end
    local ready = redis.call('HEXISTS', DIRTY, item) == 1 and redis.call('HEXISTS', INFLIGHT, item) == 0
    redis.call('HSET', PRIO, item, priority)
    existing[PRIO] = true
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
  levelOps = { keysOf = keysOf, activate = activate, gatherAt = gatherAt, fillLeaves = fillLeaves,
    pop = treePop, remove = treeRemove, useLevels = useLevels, prioritize = prioritize, rootOf = rootOf,
    turnsOf = turnsOf, childOf = childOf }
  return levelOps
end
