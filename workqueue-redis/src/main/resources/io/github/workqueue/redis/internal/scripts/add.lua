-- ARGV: now, item. Returns 1 when the item became dirty, 0 when the add joined an earlier one.
promoteDue()
return addNow(ARGV[2])
