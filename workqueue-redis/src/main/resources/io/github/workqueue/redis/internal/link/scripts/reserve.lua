--@include limiters
-- ARGV: now, limiter (JSON). Reserves a token of each of the limiter's buckets, kept in
-- this (the queue's first) shard; returns {bucket id -> delay in microseconds} as JSON.
return cjson.encode(reserveBuckets(cjson.decode(ARGV[2]), {}))
