--@include delays
-- ARGV: now, item as stored, 'requeue' or 'drop'. Takes a parked item out of the parked set and
-- either queues it again (its redelivery count starts over) or forgets it. Returns 1 if it was parked.
if redis.call('HDEL', PARKED, ARGV[2]) == 0 then
  return 0
end
redis.call('HDEL', EXPIRIES, ARGV[2])
if ARGV[3] == 'requeue' then
  promoteDue()
  addNow(ARGV[2])
  endScript()
end
return 1
