--@include delays
--@include limiters
--@include once
--@include traces
-- ARGV: now, item, limiter (JSON), and the buckets' delays if reserve.lua reserved them
-- (JSON; empty to reserve here), the add's trace context ('' for none). Counts a failure, then waits as addAfter (at priority 0, which
-- raises an item present at a lower one).
-- Returns the delay in microseconds.
-- The last three ARGV: the sender's id, the call's number, how long to keep it (includes/once.lua).
local refusal = refusedRepeatOf(ARGV)
if refusal then
  return refusal
end
promoteDue()
local reserved = nil
if ARGV[4] and ARGV[4] ~= '' then
  reserved = cjson.decode(ARGV[4])
end
local delay = when(cjson.decode(ARGV[3]), ARGV[2], reserved)
raiseToZero(ARGV[2])
addAfter(ARGV[2], delay)
appendTrace(ARGV[2], ARGV[5])
endScript()
return delay
