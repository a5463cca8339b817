--@include delays
--@include once
--@include traces
-- ARGV: now, item, delay in microseconds, the add's trace context ('' for none). A plain addAfter: at priority 0, which raises an item
-- present at a lower one. Returns 1 when a waiting entry was made or moved earlier.
-- The last three ARGV: the sender's id, the call's number, how long to keep it (includes/once.lua).
local refusal = refusedRepeatOf(ARGV)
if refusal then
  return refusal
end
promoteDue()
raiseToZero(ARGV[2])
local made = addAfter(ARGV[2], tonumber(ARGV[3]))
appendTrace(ARGV[2], ARGV[4])
endScript()
return made
