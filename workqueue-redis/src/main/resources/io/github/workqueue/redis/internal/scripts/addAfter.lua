-- ARGV: now, item, delay in microseconds. Returns 1 when a waiting entry was made or moved earlier.
promoteDue()
local made = addAfter(ARGV[2], tonumber(ARGV[3]))
finish()
return made
