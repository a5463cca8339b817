--@include state
-- Trace contexts (issue 73, docs/operations.md "Traces"): what the adds of an item carried since
-- its last grant, kept in TRACES beside the item and never part of it, so deduplication is
-- unchanged. A field is the number of contexts added, then the first MAX_KEPT of them, separated
-- by spaces (AddTraces.java reads it): the first add's context is the parent of the processing
-- the grant begins, the others its links, the count beyond them a number. A context is at most
-- 128 bytes without whitespace (checked by the adding instance), so a field stays under 1.2 KB.
-- Only adds that carry a context write here: a queue whose instances have no tracer never makes
-- TRACES, and the grant's check of it shares the command that asks of WAITING (existEach).
local MAX_KEPT = 9

-- Appends each add's context to its item's field: items[i] was added with contexts[i].
local function appendTraces(items, contexts)
  local fields = redis.call('HMGET', TRACES, unpack(items))
  local merged, order = {}, {}
  for i, item in ipairs(items) do
    local field = merged[item]
    if field == nil then
      field = fields[i] or false
      order[#order + 1] = item
    end
    if not field then
      field = '1 ' .. contexts[i]
    else
      local added, rest = string.match(field, '^(%d+) (.*)$')
      added = tonumber(added) + 1
      if added <= MAX_KEPT then
        rest = rest .. ' ' .. contexts[i]
      end
      field = added .. ' ' .. rest
    end
    merged[item] = field
  end
  local pairs = {}
  for _, item in ipairs(order) do
    pairs[#pairs + 1] = item
    pairs[#pairs + 1] = merged[item]
  end
  redis.call('HSET', TRACES, unpack(pairs))
  existing[TRACES] = true
end

-- One add's context, if it carried one ('' for none).
local function appendTrace(item, context)
  if context and context ~= '' then
    appendTraces({ item }, { context })
  end
end

-- Takes the fields of the items just granted: returns them in the items' order ('' for none),
-- or nil when none of them had one.
local function takeTraces(items)
  if #items == 0 or not exists(TRACES) then
    return nil
  end
  local fields = redis.call('HMGET', TRACES, unpack(items))
  local taken, any = {}, false
  for i = 1, #items do
    if fields[i] then
      taken[i], any = fields[i], true
    else
      taken[i] = ''
    end
  end
  if not any then
    return nil
  end
  redis.call('HDEL', TRACES, unpack(items))
  return taken
end

-- A removed item's adds cause no processing: their contexts go with them.
local function dropTraces(item)
  if exists(TRACES) then
    redis.call('HDEL', TRACES, item)
  end
end
