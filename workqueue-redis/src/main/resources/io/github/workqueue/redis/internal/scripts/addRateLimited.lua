-- ARGV: now, item, limiter (JSON). Counts a failure, reserves the buckets, then waits as addAfter.
-- Returns the delay in microseconds.
promoteDue()
local delay = when(cjson.decode(ARGV[3]), ARGV[2])
addAfter(ARGV[2], delay)
finish()
return delay
