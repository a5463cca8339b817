--@include state
-- Writes that run at most once. Lettuce sends again, once it reconnected, the commands a lost
-- connection left unanswered, and Redis may have run one before the connection went: run again,
-- an add of a key that was taken meanwhile would make it dirty (or waiting) once more, and the key
-- would be processed twice for one add. So each sender (one per batcher, and one for an instance's
-- adds of their own scripts; never reused) numbers its calls in the order they leave on its
-- connection, which is the order Redis runs them in, and a call whose number is not above the
-- last this shard ran for that sender is refused: it ran already, or (a call sent again on a
-- reconnected connection after a later one went on a new connection) it never will. The sender
-- takes the refusal as an unanswered call: its adds may have been applied, its dones are asked
-- again. The last number is one string per sender and shard, kept as long as its memory (far
-- longer than a call is waited for, after which Lettuce no longer sends it).

-- The error to return for a repeated call, or nil for a first run (whose number is kept now).
local function refusedRepeat(sender, number, memoryMillis)
  local key = SENT_CALL .. sender
  local last = redis.call('SET', key, number, 'PX', memoryMillis, 'GET')
  if last and tonumber(last) >= tonumber(number) then
    redis.call('SET', key, last, 'PX', memoryMillis)
    return redis.error_reply('REPEATED_CALL the call ' .. number .. ' of ' .. sender .. ' comes after ' .. last
      .. ' and is not run')
  end
  return nil
end

-- refusedRepeat for a call whose last three ARGV are its sender, number and memory (ms).
local function refusedRepeatOf(argv)
  local n = #argv
  return refusedRepeat(argv[n - 2], argv[n - 1], argv[n])
end
