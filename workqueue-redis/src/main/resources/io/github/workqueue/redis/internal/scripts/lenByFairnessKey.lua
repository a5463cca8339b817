-- ARGV: now. Ready items per first fairness key, over every priority: {key, count, ...}.
local result = {}
if not exists(LEVELS) then
  return result
end
local ops = levels()
local function sizeOf(node, ownOnly)
  local size = 0
  if ownOnly then
    return redis.call('ZCARD', node)
  end
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
      local child, ownOnly = ops.childOf(root, entry)
      local segment = string.sub(child, #root + 2)
      result[#result + 1] = string.sub(segment, string.find(segment, ':', 1, true) + 1)
      result[#result + 1] = sizeOf(child, ownOnly)
    end
  end
end
return result
