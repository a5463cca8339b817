--@include delays
--@include leases
--@include once
--@include traces
-- ARGV: now, item, token (or ''). remove (DESIGN.md, "Remove"): after the due waiting items are promoted (as
-- every script that changes the queue does first), drops the item's waiting entry, takes it out
-- of the ready items if it is queued (the FIFO, READY or its fairness tree), and clears its dirty
-- mark, so that an item in flight is not queued again at its done. An item left with no state
-- forgets its priority and keys. Returns 1 if it changed anything, 0 if the item was neither
-- queued, waiting nor dirty in flight. A token names the lease the calling instance took ahead
-- of its workers and gave up for the remove: that lease ends, and the item counts as removed.
-- The last three ARGV: the sender's id, the call's number, how long to keep it (includes/once.lua):
-- run again after a reconnect, a remove would take out an add made since.
local refusal = refusedRepeatOf(ARGV)
if refusal then
  return refusal
end
local item = ARGV[2]
promoteDue()
local removed = 0
local inFlight = redis.call('HEXISTS', INFLIGHT, item) == 1
local leasedAheadEnded = false
if inFlight and ARGV[3] ~= '' and leaseOf(item) == ARGV[3] then
  endLease(item)
  leasedAheadEnded = true
  removed = 1
end
if exists(WAITING) and redis.call('ZREM', WAITING, item) == 1 then
  redis.call('HDEL', ORDER, item)
  removed = 1
end
if redis.call('HEXISTS', DIRTY, item) == 1 then
  if not inFlight then
    if exists(LEVELS) then
      local ops = levels()
      ops.remove(tonumber(redis.call('HGET', PRIO, item) or 0), ops.keysOf(redis.call('HGET', FAIR, item)), item)
    elseif exists(READY) then
      local code = redis.call('HGET', SEQ, item)
      if code then
        redis.call('ZREM', READY, code .. item)
        redis.call('HDEL', SEQ, item)
      end
    else
      redis.call('LREM', QUEUE, 1, item)
    end
  end
  redis.call('HDEL', DIRTY, item)
  removed = 1
end
if removed == 1 then
  dropTraces(item)
end
if removed == 1 and (not inFlight or leasedAheadEnded) then
  forgetAttributes({ item })
end
flushCounts()
return removed
