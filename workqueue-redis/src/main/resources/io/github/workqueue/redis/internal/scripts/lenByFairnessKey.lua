-- ARGV: now. Ready items per first fairness key, over every priority: {key, count, ...}.
local function sizeOf(node, leaf)
  if leaf then
    return redis.call('ZCARD', node)
  end
  local size = 0
  for _, seg in ipairs(redis.call('LRANGE', node .. ':turns', 0, -1)) do
    size = size + sizeOf(node .. '/' .. seg, seg == '$')
  end
  return size
end
local result = {}
if not exists(LEVELS) then
  return result
end
for _, priority in ipairs(redis.call('ZRANGE', LEVELS, 0, -1)) do
  local root = QUEUE .. ':t:' .. priority
  for _, seg in ipairs(redis.call('LRANGE', root .. ':turns', 0, -1)) do
    if seg ~= '$' then
      result[#result + 1] = string.sub(seg, string.find(seg, ':', 1, true) + 1)
      result[#result + 1] = sizeOf(root .. '/' .. seg, false)
    end
  end
end
return result
