--@include state
--@include fairness
-- Kept apart from fairness.lua, whose trees it mirrors without touching a key: only the hand-over
-- of items from an add to a take in one call (placement.lua's takeReady) needs it.
--
-- The order in which the trees would serve items queued one after another into empty trees and
-- then all taken, worked out in Lua tables by the rules the trees keep (treePop, activate):
-- highest priority first; in a priority, from the root down each node serves the head of its
-- turns and sends it to the back (dropping it when it has nothing left), its own items first
-- in, first out. Returns the items in that order and the priority of each.
local function serveAll(items, prios, fair)
  local keysOf = levels().keysOf
  local function newNode()
    return { size = 0, own = {}, ownHead = 1, children = {} }
  end
  local function push(turns, entry)
    turns.last = turns.last + 1
    turns[turns.last] = entry
  end
  local roots, priorities, numbers = {}, {}, {}
  for i, item in ipairs(items) do
    local priority = numberIn(numbers, prios[i] or 0)
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
