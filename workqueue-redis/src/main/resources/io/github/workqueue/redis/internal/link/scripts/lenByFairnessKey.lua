--@include delays
-- ARGV: now. Ready items per first fairness key, over every priority: {key, count, ...}. The
-- waiting items whose time has come are promoted first.
promoteDue()
endScript()
local result = {}
if not exists(LEVELS) then
  return result
end
local ops = levels()
local function sizeOf(node, ownOnly)
  if ownOnly then
    return redis.call('ZCARD', node)
  end
  local size = 0
  for _, entry in ipairs(redis.call('LRANGE', ops.turnsOf(node), 0, -1)) do
    if entry == '$' then
      size = size + redis.call('ZCARD', node)
    else
      size = size + sizeOf(ops.childOf(node, entry))
    end
  end
  return size
end
for _, priority in ipairs(redis.call('ZRANGE', LEVELS, 0, -1)) do
  local root = ops.rootOf(priority)
  for _, entry in ipairs(redis.call('LRANGE', ops.turnsOf(root), 0, -1)) do
    if entry ~= '$' then
      -- The entry is the key's length, ':' and the key, after a mark when it has one.
      result[#result + 1] = string.match(entry, '^=?%d+:(.*)$')
      result[#result + 1] = sizeOf(ops.childOf(root, entry))
    end
  end
end
return result
