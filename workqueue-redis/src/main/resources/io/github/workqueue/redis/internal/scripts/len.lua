-- ARGV: now. The number of ready items.
return readyCount()
