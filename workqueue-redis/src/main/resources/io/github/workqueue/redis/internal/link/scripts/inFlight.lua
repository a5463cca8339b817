--@include leases
-- ARGV: now. Every item under a lease, after the time of reading:
-- {now, item, token, holder, granted at, deadline, item, ...}.
local result = { int(now) }
local leases = redis.call('HGETALL', INFLIGHT)
for i = 1, #leases, 2 do
  local token, holder, since, deadline = parseLease(leases[i + 1])
  result[#result + 1] = leases[i]
  result[#result + 1] = token
  result[#result + 1] = holder
  result[#result + 1] = since
  result[#result + 1] = deadline
end
return result
