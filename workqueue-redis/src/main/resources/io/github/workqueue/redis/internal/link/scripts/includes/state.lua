-- The keys of a Redis queue (all in one hash slot). A script is given the first, the queue's, as
-- KEYS[1], ending in 'queue'; the others are named after it, the name's 'queue' replaced by the
-- suffix listed (QueueKeys.java names them the same way), as the keys of priorities and fairness
-- below are:
--   1 queue     list    FIFO of encoded items (every one is dirty and not in flight)
--   2 dirty     hash    item -> when it became dirty (added and not yet taken; queue latency)
--   3 inflight  hash    item -> "token holder since deadline" of its lease (until done or reaped)
--   4 leases    zset    item -> lease deadline (microseconds of Redis time)
--   5 waiting   zset    item -> ready time (microseconds)
--   6 order     hash    item -> insertion sequence of its waiting entry (ties)
--   7 failures  hash    item -> failed attempts since the last forget
--   8 expiries  hash    item -> leases expired in a row (reset by done)
--   9 parked    hash    item -> why it was parked
--  10 buckets   hash    limiter index -> "tokens last"
--  11 wake      list    wake-up hints for blocked getters (never state)
--  12 counters  hash    sequence numbers and queue-wide totals
--  13 ended     hash    token -> item, of each lease ended by done (a repeated done is accepted)
--  14 endedOld  hash    the same for the window before: a done is remembered for one to two
--                       windows, then dropped with the whole hash (the window is in counters)
--  15 traces    hash    item -> the trace contexts of its adds since its last grant (includes/
--                       traces.lua); only adds that carried one write it
-- The suffixes of keys 2 to 15, in that order: dirty-since, inflight, leases, waiting, order,
-- failures, expiries, parked, buckets, wake, counters, ended, ended-before, traces.
-- ARGV[1] is the time to use in microseconds, or empty for Redis's TIME.
--
-- This file holds the key layout and one call's state; every script includes it, and begin() is
-- the first thing each runs. The other files of includes/ hold one concern each; a file (or a
-- script) names what it uses with '--@include name' lines at its top, and the loader puts each
-- included file once, after those it includes, before the code that includes it (Script.java).
-- Loaded once as a Redis function library (every script registered as a function), the
-- included code is made once and kept between calls: the state of one call lives in the
-- variables declared here and is set afresh by begin(). Where functions are unavailable each
-- script is sent with its includes in front and a call to begin(); the same code runs.
local QUEUE, DIRTY, INFLIGHT, LEASES, WAITING, ORDER, FAILURES, EXPIRIES, PARKED, BUCKETS, WAKE, COUNTERS, ENDED
local ENDED_OLD, TRACES
-- 'sent-call:' and a sender's id: the number of the last of that sender's calls run here
-- (a string, includes/once.lua).
local SENT_CALL
local now

-- A whole number as Redis stores it. '%d' formats through a C long (64 bits where Redis runs),
-- which costs half of '%.0f' for the sixteen digits of a time in microseconds.
local function int(n)
  return string.format('%d', n)
end

-- tonumber(text), kept in cache for the rest of the call: a priority's or a score's text is
-- read once per call however many items carry it (tonumber of a text costs glibc's strtod).
local function numberIn(cache, text)
  local number = cache[text]
  if not number then
    number = tonumber(text)
    cache[text] = number
  end
  return number
end

local WAKE_HINTS = 64

-- Redis keeps a hash or sorted set of at most 128 entries, none over 64 bytes, as a listpack,
-- which every lookup, insert and removal scans from its start: at the steady state of workers
-- that keep up with batches of 64, the queue's busiest keys (DIRTY, LEASES, and PRIO and FAIR,
-- which hold the present items that have a priority or keys) are that small, and those scans
-- were a third of a call's instructions (docs/benchmarks.md). One field, value or member over
-- 64 bytes makes the key a hash table or a skip list, and it stays one until it is deleted
-- (Redis makes a listpack again only of a set it copies, or when it loads its data). So a write
-- of MANY pairs or more puts LONG_MEMBER first and removes it at once (never an item: items are
-- UTF-8, which has no byte 255; first, so that a key the write creates is made so from the
-- start). Below MANY keys are left to Redis: in a batch of four adds, dones and grants (the
-- library's defaults, where the keys are small and often made and emptied by each call) the
-- extra command cost more than the scans it saved. Where a server's limits are above 64 bytes
-- the keys stay listpacks, as before.
local LONG_MEMBER = '\255----------------------------------------------------------------' -- 65 bytes
local MANY = 16

-- HSET of (field, value) pairs (see LONG_MEMBER).
local function hsetMany(key, pairs)
  if #pairs < 2 * MANY then
    redis.call('HSET', key, unpack(pairs))
    return
  end
  redis.call('HSET', key, LONG_MEMBER, LONG_MEMBER, unpack(pairs))
  redis.call('HDEL', key, LONG_MEMBER)
end

-- ZADD of (score, member) pairs (see LONG_MEMBER).
local function zaddMany(key, pairs)
  if #pairs < 2 * MANY then
    redis.call('ZADD', key, unpack(pairs))
    return
  end
  redis.call('ZADD', key, pairs[1], LONG_MEMBER, unpack(pairs))
  redis.call('ZREM', key, LONG_MEMBER)
end

-- The keys of priorities and fairness (described below), named after QUEUE.
local PRIO, FAIR, LEVELS, COUNT, READY, SEQ

-- Whether each of two, three or four keys exists, in one command: EXISTS counts a key once for
-- each time it is named, so naming them once, twice, four and eight times makes its answer a bit
-- per key.
local function existEach(a, b, c, d)
  if not c then
    local found = redis.call('EXISTS', a, b, b)
    return found % 2 == 1, found >= 2
  end
  if not d then
    local found = redis.call('EXISTS', a, b, b, c, c, c, c)
    return found % 2 == 1, found % 4 >= 2, found >= 4
  end
  local found = redis.call('EXISTS', a, b, b, c, c, c, c, d, d, d, d, d, d, d, d)
  return found % 2 == 1, found % 4 >= 2, found % 8 >= 4, found >= 8
end

-- Whether a key exists: the one question this code asks of a key's existence, for the queue's
-- keys and the fairness trees' alike. Asked of Redis once per script, then kept up to date in
-- `existing` by the functions that write the key (nil: not known): most items are never
-- waiting, parked or expired, so the commands that would clean them up are skipped while their
-- key is absent, and a batch of many items reads a tree's node once. A key taken for existing
-- that a command of this script emptied costs a command that finds nothing, never a skipped
-- one. The four keys of priorities and fairness that say where the ready items are are asked
-- together, one command whatever the queue uses (existEach); so are the four that a batch of
-- adds, dones and grants asks about (WAITING, PARKED, EXPIRIES, TRACES). Asking again of a key
-- already known only reads what Redis holds now, which is what `existing` says or, for a key
-- emptied by a command here, more exact.
local existing
local function exists(key)
  if existing[key] == nil then
    if key == PRIO or key == FAIR or key == LEVELS or key == READY then
      existing[PRIO], existing[FAIR], existing[LEVELS], existing[READY] = existEach(PRIO, FAIR, LEVELS, READY)
    elseif key == WAITING or key == PARKED or key == EXPIRIES or key == TRACES then
      existing[WAITING], existing[PARKED], existing[EXPIRIES], existing[TRACES] = existEach(WAITING, PARKED, EXPIRIES,
        TRACES)
    else
      existing[key] = redis.call('EXISTS', key) == 1
    end
  end
  return existing[key]
end

-- Priorities and fairness (DESIGN.md, "Priority and fairness"), in keys named after QUEUE (its
-- hash slot):
--   PRIO    hash  item -> priority, for items present (dirty, waiting or in flight) not at 0
--   FAIR    hash  item -> fairness keys (JSON array), for items present that have keys
--   LEVELS  zset  the priorities that have ready items, while the levels are in use
--   COUNT   hash  priority -> ready items at it (their sum is the ready items in the levels)
--   QUEUE:t:<priority>[/<segment>...]  a priority's fairness tree: one node per path of keys (a
--           segment is a key with its length in front). A node's own items (those whose keys
--           end there) are a zset at the node's name, item -> the sequence in which it became
--           ready. A node with children has a ':turns' list, its round-robin order: an entry per
--           active child and '$' for its own items, served at the head and then moved to the
--           tail, or dropped when empty. A child's entry is its segment, marked with '=' in
--           front while the child has own items only (and so no turns), which saves serving
--           it a command; a node with no keys below it is such a node too, and its items leave
--           several at once.
-- Ready items that have no keys, while none that has keys is ready, are kept in two keys instead,
-- since they need no tree:
--   READY   zset  item's sequence code (sixteen digits, the sequence plus 2^52, so that the codes
--                 of negative sequences sort first) followed by the item -> minus its priority:
--                 ZPOPMIN takes the highest priority's first ready item (members of one score leave
--                 in the order of their bytes, so of their codes)
--   SEQ     hash  item -> its code, for exactly the items in READY (a raise moves the member)
-- The ready items are in exactly one place: the FIFO while neither READY nor LEVELS exists (every
-- ready item at priority 0 without keys: today's queue at today's cost); READY while it exists;
-- the trees while LEVELS exists. The first ready item of another priority moves the FIFO into
-- READY in its order, the first with keys moves the FIFO or READY into the trees; when READY or
-- the levels are empty their key is gone, and the FIFO is back.

-- Items that became ready during this script and were queued in Redis's keys: endScript() wakes
-- getters once for all. drained: a take found fewer ready items than it asked for and none has
-- become ready since, so no hint is needed (endScript() need not count the ready items).
local queued, drained

-- Also kept for the whole script, so that a batch of many items pays for them once: the ready
-- counts not yet written to COUNT (endScript() writes them).
local pendingCount, pendingAll

-- Items that became ready in this script while nothing else was ready, kept in Lua instead of in
-- READY or the trees because the script is going to take them all itself (a batch whose idle
-- getters outnumber them: the steady state of workers that keep up): nil, or their items,
-- priorities and fairness keys as read, in the order they became ready; never more than
-- passLimit, the number of items the script will ask popReady for (0 but in a batch, whose
-- takes ask for that many). settle() writes them to Redis's keys as if queued when they became
-- ready, before any step but that take that reads or changes where ready items are.
local passing, passLimit
local settle

-- Starts a call: its keys, its time, and nothing known or pending yet. The keys' names are made
-- when the queue differs from the last call's: loaded as a function library, this code's state
-- stays between calls, and an instance's calls are mostly to one queue.
local function begin(keys, argv)
  if keys[1] ~= QUEUE then
    if string.sub(keys[1], -5) ~= 'queue' then
      error('workqueue: KEYS[1] must be a queue key ending in "queue", not ' .. tostring(keys[1]))
    end
    QUEUE = keys[1]
    local prefix = string.sub(QUEUE, 1, -6)
    DIRTY, INFLIGHT, LEASES, WAITING = prefix .. 'dirty-since', prefix .. 'inflight', prefix .. 'leases',
      prefix .. 'waiting'
    ORDER, FAILURES, EXPIRIES, PARKED = prefix .. 'order', prefix .. 'failures', prefix .. 'expiries',
      prefix .. 'parked'
    BUCKETS, WAKE, COUNTERS, ENDED = prefix .. 'buckets', prefix .. 'wake', prefix .. 'counters', prefix .. 'ended'
    ENDED_OLD, SENT_CALL, TRACES = prefix .. 'ended-before', prefix .. 'sent-call:', prefix .. 'traces'
    PRIO, FAIR, LEVELS, COUNT = QUEUE .. ':prio', QUEUE .. ':fair', QUEUE .. ':levels', QUEUE .. ':count'
    READY, SEQ = QUEUE .. ':ready', QUEUE .. ':seq'
  end
  if argv[1] ~= '' then
    now = tonumber(argv[1])
  else
    local t = redis.call('TIME')
    now = tonumber(t[1]) * 1000000 + tonumber(t[2])
  end
  existing, queued, drained = {}, 0, false
  pendingCount, pendingAll = {}, 0
  passing, passLimit = nil, 0
end
