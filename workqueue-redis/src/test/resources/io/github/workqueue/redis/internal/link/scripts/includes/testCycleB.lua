--@include testCycleA
local function b() end
