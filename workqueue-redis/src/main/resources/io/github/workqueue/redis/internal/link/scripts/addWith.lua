--@include delays
--@include limiters
--@include once
--@include traces
-- ARGV: now, item, priority, fairness keys (JSON array, or empty for none), delay in microseconds,
-- limiter (JSON, or empty when not rate-limited), the buckets' delays as in addRateLimited.lua, and
-- the add's trace context ('' for none).
-- An add with options (controller-runtime's AddWithOpts): the item's priority is raised (a new
-- item takes the add's), then it is added now or after the delay; when rate-limited, after the
-- shorter of the delay and the limiter's. Returns {1 if the add made the item dirty or waiting
-- earlier, else 0; the delay used in microseconds}.
-- The last three ARGV: the sender's id, the call's number, how long to keep it (includes/once.lua).
local refusal = refusedRepeatOf(ARGV)
if refusal then
  return refusal
end
promoteDue()
local item = ARGV[2]
levels().prioritize(item, tonumber(ARGV[3]), ARGV[4])
local delay = tonumber(ARGV[5])
if ARGV[6] ~= '' then
  local reserved = nil
  if ARGV[7] ~= '' then
    reserved = cjson.decode(ARGV[7])
  end
  local limited = when(cjson.decode(ARGV[6]), item, reserved)
  if delay <= 0 or limited < delay then
    delay = limited
  end
end
local made = addAfter(item, delay)
appendTrace(item, ARGV[8])
endScript()
return { made, delay }
