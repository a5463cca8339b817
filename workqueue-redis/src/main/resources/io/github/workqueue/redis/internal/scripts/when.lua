-- ARGV: now, item, limiter (JSON). The limiter's when alone: counts a failure, returns the delay.
return when(cjson.decode(ARGV[3]), ARGV[2])
