--@include delays
-- ARGV: now. The number of ready items, the waiting items whose time has come included: they
-- are promoted first, as any script that looks at readiness does.
promoteDue()
endScript()
return readyCount()
