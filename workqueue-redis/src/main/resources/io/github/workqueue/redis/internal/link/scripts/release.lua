--@include delays
--@include leases
-- ARGV: now, then item, token pairs. An instance shutting down gives its leases back: each item
-- still held by its token returns to the head of the FIFO at once, not counted as redelivered.
-- Due waiting items were ready before the items given back now.
promoteDue()
local released = 0
for i = 2, #ARGV, 2 do
  if leaseOf(ARGV[i]) == ARGV[i + 1] then
    endLease(ARGV[i])
    redis.call('HSETNX', DIRTY, ARGV[i], int(now))
    enqueue(ARGV[i], true)
    released = released + 1
  end
end
endScript()
return released
