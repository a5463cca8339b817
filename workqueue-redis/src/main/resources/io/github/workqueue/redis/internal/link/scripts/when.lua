--@include limiters
-- ARGV: now, item, limiter (JSON), and the buckets' delays as in addRateLimited.lua. The
-- limiter's when alone: counts a failure, returns the delay.
local reserved = nil
if ARGV[4] and ARGV[4] ~= '' then
  reserved = cjson.decode(ARGV[4])
end
return when(cjson.decode(ARGV[3]), ARGV[2], reserved)
