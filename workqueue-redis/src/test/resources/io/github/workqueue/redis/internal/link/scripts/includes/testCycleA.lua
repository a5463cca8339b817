--@include testCycleB
local function a() end
